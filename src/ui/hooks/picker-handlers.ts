import type { Dispatch } from "react";
import type { SessionState } from "../../session/state.js";
import { configValuePicker, pickedConfigValue } from "../commands/session-option-commands.js";
import { selectedItem, type PickerState } from "../decisions/picker-state.js";
import type { SessionPort } from "../session-port.js";
import type { ShellAction } from "../shell/shell-state.js";

/** The picker view's callbacks. */
export interface PickerHandlers {
  onMove(by: number): void;
  /** Keys typed into the filter (DEL erases). */
  onType(keys: string): void;
  /** Chooses `picker`'s selected entry (as the keys left it); returns the picker that follows it, if one does. */
  onPick(picker: PickerState): PickerState | null;
  onClose(): void;
}

/** What the picker's keys do: move, filter, close, and choose: a model, an option (then its values), a value. */
export function pickerHandlers(ctx: { port: SessionPort; state: SessionState; dispatch: Dispatch<ShellAction> }): PickerHandlers {
  const { port, state, dispatch } = ctx;
  return {
    onMove: (by) => dispatch({ type: "picker-moved", by }),
    onType: (keys) => dispatch({ type: "picker-typed", keys }),
    onClose: () => dispatch({ type: "picker-closed" }),
    onPick: (picker) => {
      const item = selectedItem(picker);
      if (!item) return picker;
      dispatch({ type: "picker-closed" });
      const purpose = picker.purpose;
      if (purpose.kind === "model") void port.setModel(item.id);
      else if (purpose.kind === "config") {
        const option = state.configOptions.find((o) => o.id === item.id);
        if (option) {
          const values = configValuePicker(option);
          dispatch({ type: "picker-opened", picker: values });
          return values;
        }
      } else {
        const option = state.configOptions.find((o) => o.id === purpose.optionId);
        void port.setConfigOption(purpose.optionId, pickedConfigValue(option, item.id));
      }
      return null;
    },
  };
}
