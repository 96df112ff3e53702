// The pure state of a list a person picks from (/model, /config and a config option's values): the
// entries, what is typed to filter them, and which one is selected.

/** One entry of a picker. */
export interface PickerItem {
  /** What choosing it sends (a model id, an option id, a value). */
  id: string;
  label: string;
  /** Said after the label, dimmed (a description, an option's current value). */
  detail?: string;
  /** The session's current choice: marked, and selected when the picker opens. */
  current?: boolean;
}

/** What the chosen entry is for: the shell turns it into an intent, or into the next picker. */
export type PickerPurpose = { kind: "model" } | { kind: "config" } | { kind: "config-value"; optionId: string };

/** A picker as the shell keeps it. */
export interface PickerState {
  title: string;
  items: PickerItem[];
  purpose: PickerPurpose;
  /** What was typed to filter the entries. */
  filter: string;
  /** The selected entry, by id (it stays selected while the filter still shows it). */
  selected: string | undefined;
}

/** A picker with nothing typed, on the current entry (else the first). */
export function openPicker(title: string, items: PickerItem[], purpose: PickerPurpose): PickerState {
  return { title, items, purpose, filter: "", selected: (items.find((i) => i.current) ?? items[0])?.id };
}

/** The entries the filter shows: every word typed is in the label, the id or the detail (any case). */
export function shownItems(picker: PickerState): PickerItem[] {
  const words = picker.filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return picker.items;
  return picker.items.filter((item) => {
    const text = `${item.label} ${item.id} ${item.detail ?? ""}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The selected entry among those shown: the one selected, else the first shown. */
export function selectedItem(picker: PickerState): PickerItem | undefined {
  const shown = shownItems(picker);
  return shown.find((i) => i.id === picker.selected) ?? shown[0];
}

/** The selection moved `by` entries among those shown (it stops at the ends). */
export function movedPicker(picker: PickerState, by: number): PickerState {
  const shown = shownItems(picker);
  if (shown.length === 0) return picker;
  const at = Math.max(
    0,
    shown.findIndex((i) => i.id === selectedItem(picker)?.id),
  );
  const next = shown[Math.min(shown.length - 1, Math.max(0, at + by))];
  return next.id === picker.selected ? picker : { ...picker, selected: next.id };
}

/** Keys typed into the filter: text, where a backspace (DEL or BS) erases the character before it. */
export function typedPicker(picker: PickerState, keys: string): PickerState {
  const chars = [...picker.filter];
  for (const ch of keys) {
    if (ch === "\x7f" || ch === "\b") chars.pop();
    else if (!/[\u0000-\u001f]/.test(ch)) chars.push(ch);
  }
  const filter = chars.join("");
  if (filter === picker.filter) return picker;
  const next = { ...picker, filter };
  // The selection follows the filter to an entry it still shows.
  return { ...next, selected: selectedItem(next)?.id ?? picker.selected };
}
