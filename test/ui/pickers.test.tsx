import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

/** A session with the model choice and two options (a select and a switch), as claude and gemini send them. */
function sessionWithOptions(): FakeSession {
  return new FakeSession().open({
    models: {
      currentModelId: "default",
      availableModels: [
        { modelId: "default", name: "Default (recommended)" },
        { modelId: "opus", name: "Opus" },
        { modelId: "haiku", name: "Haiku" },
      ],
    },
    configOptions: [
      {
        id: "effort",
        name: "Reasoning effort",
        type: "select",
        currentValue: "medium",
        options: [
          { value: "low", name: "Low" },
          { value: "medium", name: "Medium" },
          { value: "high", name: "High" },
        ],
      },
      { id: "fast", name: "Fast mode", type: "boolean", currentValue: false },
    ],
  });
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

/** Types `text`, then Enter as a read of its own. */
async function submit(stdin: { write(s: string): void }, text: string) {
  await type(stdin, text);
  await type(stdin, KEY.enter);
}

function renderApp(session: FakeSession) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
  return { ...view, frame: () => plain(view.lastFrame()) };
}

describe("/model and /config are pickers", () => {
  it("/model lists the models on the current one; typing filters, ↓ and Enter choose, and the model is set", async () => {
    const session = sessionWithOptions();
    const { stdin, frame } = renderApp(session);
    await tick();
    await submit(stdin, "/model");
    await until(() => expect(frame()).toMatch(/› ● Default \(recommended\) · default/));
    expect(frame()).toContain("○ Haiku");
    expect(frame()).toContain("↑↓ move · enter choose · type to filter · esc close");
    await type(stdin, KEY.down);
    await until(() => expect(frame()).toMatch(/› ○ Opus/));
    await type(stdin, "hai");
    await until(() => expect(frame()).toContain("filter: hai"));
    await until(() => expect(frame()).not.toContain("Opus"));
    await type(stdin, KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "setModel", args: ["haiku"] }));
    await until(() => expect(frame()).not.toContain("filter:"));
  });

  it("Esc closes the picker with nothing chosen, and the keys go back to the input", async () => {
    const session = sessionWithOptions();
    const { stdin, frame } = renderApp(session);
    await tick();
    await submit(stdin, "/model");
    await until(() => expect(frame()).toContain("filter:"));
    await type(stdin, KEY.escape);
    await until(() => expect(frame()).not.toContain("filter:"));
    await type(stdin, "hello");
    await until(() => expect(frame()).toContain("› hello"));
    expect(session.intents()).not.toContain("setModel");
    expect(session.intents()).not.toContain("cancel");
  });

  it("/config lists the options with their values; Enter on one lists its values, Enter on a value sets it", async () => {
    const session = sessionWithOptions();
    const { stdin, frame } = renderApp(session);
    await tick();
    await submit(stdin, "/config");
    await until(() => expect(frame()).toMatch(/› ○ Reasoning effort · Medium \(medium\) · effort/));
    expect(frame()).toMatch(/○ Fast mode · off · fast/);
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toMatch(/› ● Medium · medium/));
    await type(stdin, KEY.down);
    await type(stdin, KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "setConfigOption", args: ["effort", "high"] }));
    await submit(stdin, "/config fast");
    await until(() => expect(frame()).toMatch(/› ● off/));
    await type(stdin, KEY.up);
    await type(stdin, KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "setConfigOption", args: ["fast", true] }));
  });

  it("keys typed faster than the picker redraws choose what they moved to: ↓↓ Enter in one read, then ↓ Enter on the values", async () => {
    const session = sessionWithOptions();
    const { stdin, frame } = renderApp(session);
    await tick();
    await submit(stdin, "/model");
    await until(() => expect(frame()).toContain("filter:"));
    await type(stdin, KEY.down + KEY.down + KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "setModel", args: ["haiku"] }));
    // A filter and Enter in one read (tmux's send-keys, a paste): the filter, then the choice.
    await submit(stdin, "/model");
    await until(() => expect(frame()).toContain("filter:"));
    await type(stdin, `opu${KEY.enter}`);
    await until(() => expect(session.calls).toContainEqual({ intent: "setModel", args: ["opus"] }));
    await submit(stdin, "/config");
    await until(() => expect(frame()).toContain("filter:"));
    // Enter opens the option's values; the keys after it act on them, not on the options' list.
    await type(stdin, KEY.enter + KEY.down + KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "setConfigOption", args: ["effort", "high"] }));
    expect(session.intents().filter((i) => i === "setModel")).toHaveLength(2);
  });

  it("the keys that open a picker and the ones that choose in it, all in one read: the picker gets the ↓ and the Enter, not the input", async () => {
    const session = sessionWithOptions();
    const { stdin } = renderApp(session);
    await tick();
    // As the terminal reader hands them over: the text and each key a read of its own, with no wait between.
    for (const read of ["/model", KEY.enter, KEY.down, KEY.down, KEY.enter]) stdin.write(read);
    await until(() => expect(session.calls).toContainEqual({ intent: "setModel", args: ["haiku"] }));
  });
});
