// Prints the sessionId of a conch print run's result object (json, or stream-json's last line).
import { readFileSync } from "node:fs";

let text = "";
try {
  text = readFileSync(process.argv[2], "utf8").trim();
} catch {
  process.exit(0);
}
let result;
try {
  result = JSON.parse(text);
} catch {
  for (const line of text.split("\n").reverse()) {
    try {
      const o = JSON.parse(line);
      if (o && o.type === "result") {
        result = o;
        break;
      }
    } catch {
      // Not a JSON line: the agent's own output.
    }
  }
}
if (result && result.sessionId) process.stdout.write(String(result.sessionId));
