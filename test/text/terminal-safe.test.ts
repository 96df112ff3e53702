import { describe, expect, it } from "vitest";
import { REMOVED_MARK, safeLine, safeOutput, safeText } from "../../src/text/terminal-safe.js";

const OSC52 = "\u001b]52;c;cm0gLXJmIH4=\u0007";
const TITLE = "\u001b]0;pwned\u001b\\";
const CLEAR = "\u001b[2J\u001b[H";

describe("text from outside conch never reaches the terminal raw", () => {
  it("takes out clipboard writes, window titles, screen clears and cursor moves, leaving a mark", () => {
    const out = safeText(`a${OSC52}b${TITLE}c${CLEAR}d\u001b[5Ae`);
    expect(out).not.toContain("\u001b");
    expect(out).not.toContain("\u0007");
    expect(out).toBe(`a${REMOVED_MARK}b${REMOVED_MARK}c${REMOVED_MARK}${REMOVED_MARK}d${REMOVED_MARK}e`);
  });

  it("takes out 8-bit CSI and OSC, C0 and C1 controls and bidi overrides; keeps tabs, line breaks and ordinary text", () => {
    const out = safeText("x\u009b2Jy\u009d0;t\u009cz\u0000\u0008\u007f\u0085 \u202eevil\tok\nnext");
    expect(out).not.toMatch(/[\u0000-\u0008\u007f-\u009f\u202e]/);
    expect(out).toContain("evil\tok\nnext");
    expect(safeText("plain text, ümlauts and 日本語")).toBe("plain text, ümlauts and 日本語");
  });

  it("a lone carriage return is a line break, not an overwrite of what came before", () => {
    expect(safeText("safe\rEVIL")).toBe("safe\nEVIL");
  });

  it("program output keeps its colours, loses everything else, and shows a progress line as it ended", () => {
    const out = safeOutput(`\u001b[31mred\u001b[0m ${OSC52}${CLEAR}\n10%\r50%\r100%`);
    expect(out).toBe(`\u001b[31mred\u001b[0m \n100%`);
  });

  it("a single line has no breaks", () => {
    expect(safeLine("title\nwith\r\nbreaks")).toBe("title with breaks");
  });
});
