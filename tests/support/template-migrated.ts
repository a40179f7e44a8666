/** Vitest global setup: one migrated (not seeded) template database per run; see tests/support/database.ts. */
import type { TestProject } from "vitest/node";
import { provideTemplate } from "./database-template.ts";

export default (project: TestProject) => provideTemplate(project, { seed: false });
