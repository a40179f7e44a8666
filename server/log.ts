/** One-line JSON logs. Never pass request bodies here: the checkout's carry card data. */
export type Level = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: Level = "info", write: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
  const at = (lvl: Exclude<Level, "silent">) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const extra = Object.fromEntries(
      Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack?.split("\n").slice(0, 6).join("\n") } : v]),
    );
    write(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...extra }));
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
