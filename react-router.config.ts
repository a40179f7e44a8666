import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Separate folders let several builds (parallel test runs) coexist.
  buildDirectory: process.env.SHOP_BUILD_DIR ?? "build",
} satisfies Config;
