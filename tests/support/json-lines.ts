/** Reading a shop process's output in tests that spawn the built server: its log is JSON lines on stdout. */
import type { ChildProcess } from "node:child_process";

/**
 * Calls `onText` with everything the child writes (stdout and stderr, for "nothing secret was logged" checks) and
 * `onLine` with each complete stdout line that parses as JSON; other lines are skipped.
 */
export function readJsonLines<T>(child: ChildProcess, onLine: (line: T) => void, onText: (text: string) => void = () => {}): void {
  let buffer = "";
  child.stderr?.on("data", (chunk: Buffer) => onText(chunk.toString()));
  child.stdout?.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    onText(text);
    buffer += text;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const raw = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let line: T;
      try {
        line = JSON.parse(raw) as T;
      } catch {
        continue; // not a log line
      }
      onLine(line);
    }
  });
}
