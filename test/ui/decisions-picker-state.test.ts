import { describe, expect, it } from "vitest";
import { movedPicker, openPicker, selectedItem, shownItems, typedPicker } from "../../src/ui/decisions/picker-state.js";

const models = openPicker(
  "model",
  [
    { id: "default", label: "Default (recommended)" },
    { id: "sonnet[1m]", label: "Sonnet (1M context)" },
    { id: "opus[1m]", label: "Opus (1M context)", current: true },
    { id: "haiku", label: "Haiku" },
  ],
  { kind: "model" },
);

describe("a picker's state", () => {
  it("opens on the current entry, and moves among the entries, stopping at the ends", () => {
    expect(selectedItem(models)?.id).toBe("opus[1m]");
    expect(selectedItem(movedPicker(models, 1))?.id).toBe("haiku");
    expect(selectedItem(movedPicker(movedPicker(models, 1), 1))?.id).toBe("haiku");
    expect(selectedItem(movedPicker(models, -5))?.id).toBe("default");
  });

  it("keeps the entries that have every word typed, in any case; the selection follows to one it shows", () => {
    const typed = typedPicker(models, "1m son");
    expect(shownItems(typed).map((i) => i.id)).toEqual(["sonnet[1m]"]);
    expect(selectedItem(typed)?.id).toBe("sonnet[1m]");
    const erased = typedPicker(typed, "\x7f\x7f\x7f\x7f");
    expect(erased.filter).toBe("1m");
    expect(shownItems(erased).map((i) => i.id)).toEqual(["sonnet[1m]", "opus[1m]"]);
    expect(shownItems(typedPicker(models, "nothing like it"))).toEqual([]);
    expect(selectedItem(typedPicker(models, "nothing like it"))).toBeUndefined();
  });
});
