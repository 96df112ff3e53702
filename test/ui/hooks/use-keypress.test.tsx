import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "ink-testing-library";
import { Text } from "ink";
import { KeyPriority, useKeypress, type KeypressOptions } from "../../../src/ui/hooks/use-keypress.js";
import { renderKeyed as render } from "../render-keyed.js";
import { KEY, tick } from "../fake-session.js";

afterEach(() => cleanup());

/** A view that logs the keys it sees as `name:key` and takes those in `takes`. */
function Listener(props: { name: string; log: string[]; takes?: string[] } & KeypressOptions) {
  useKeypress(
    (input) => {
      props.log.push(`${props.name}:${input}`);
      return props.takes?.includes(input) === true;
    },
    { isActive: props.isActive, priority: props.priority },
  );
  return <Text>{props.name}</Text>;
}

describe("the keypress dispatcher", () => {
  it("hands a key to the handlers by priority until one takes it", async () => {
    const log: string[] = [];
    const { stdin } = render(
      <>
        <Listener name="view" log={log} />
        <Listener name="shell" log={log} priority={KeyPriority.shell} takes={["c"]} />
        <Listener name="off" log={log} isActive={false} />
      </>,
    );
    await tick();
    stdin.write("x");
    await tick();
    stdin.write("c");
    await tick();
    expect(log).toEqual(["shell:x", "view:x", "shell:c"]);
  });

  it("gives a key that moves the focus to the view that had it only, and a later key to the view that has it now", async () => {
    const log: string[] = [];
    function Focus() {
      const [focus, setFocus] = useState<"a" | "b">("a");
      useKeypress(
        (input, key) => {
          log.push(`a:${key.return ? "enter" : input}`);
          if (key.return) setFocus("b");
        },
        { isActive: focus === "a" },
      );
      useKeypress(
        (input) => {
          log.push(`b:${input}`);
          return true;
        },
        { isActive: focus === "b" },
      );
      return <Text>{focus}</Text>;
    }
    const { stdin } = render(<Focus />);
    await tick();
    stdin.write(KEY.enter);
    await tick();
    stdin.write("y");
    await tick();
    expect(log).toEqual(["a:enter", "b:y"]);
  });
});
