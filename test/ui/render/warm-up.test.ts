import { beforeAll, describe, expect, it } from "vitest";
import { markdownRows } from "../../../src/ui/render/markdown-rows.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { warmRenderers } from "../../../src/ui/render/warm-up.js";

beforeAll(async () => {
  await loadRenderLibs();
});

const MESSAGE = "## Result\n\nThe **tests** pass:\n\n- `npm test`\n- 12 files\n\n```js\nconsole.log(1);\n```";

describe("warming the row renderers", () => {
  it("draws its samples one task at a time and changes nothing a message is drawn as", () => {
    const before = markdownRows(MESSAGE, 60);
    const streamingBefore = markdownRows(MESSAGE, 60, { live: true, memo: {} });
    const tasks: (() => void)[] = [];
    warmRenderers((step) => void tasks.push(step));
    let ran = 0;
    while (tasks.length) {
      tasks.shift()!();
      ran++;
    }
    expect(ran).toBeGreaterThan(5);
    expect(markdownRows(MESSAGE, 60)).toEqual(before);
    expect(markdownRows(MESSAGE, 60, { live: true, memo: {} })).toEqual(streamingBefore);
  });
});
