import { useState } from "react";
import { describe, expect, it } from "vitest";
import { renderKeyed as render } from "./render-keyed.js";
import { InputEditor } from "../../src/ui/components/input-editor.js";
import { SlashMenu } from "../../src/ui/components/slash-menu.js";
import { EditorStore } from "../../src/ui/hooks/use-editor-store.js";
import { parseSlash } from "../../src/ui/commands/conch-commands.js";
import { allSlashCommands, completeSlash, slashQuery, slashSuggestions } from "../../src/ui/commands/slash-commands.js";
import { KEY, plain, tick, until } from "./fake-session.js";

const agentCommands = [
  { name: "review", description: "review the diff", input: { hint: "branch" } },
  { name: "help", description: "the agent's own help" },
  { name: "memory", description: "edit memory" },
];

describe("slash command filtering", () => {
  const commands = allSlashCommands(agentCommands);

  it("lists conch's commands first and hides an agent command conch already has", () => {
    expect(commands.filter((c) => c.name === "help")).toHaveLength(1);
    expect(commands.find((c) => c.name === "help")!.source).toBe("conch");
    expect(commands.find((c) => c.name === "review")).toMatchObject({ source: "agent", hint: "branch" });
  });

  it("puts prefix matches before names that only contain the query", () => {
    expect(slashSuggestions("mo", commands).map((c) => c.name)).toEqual(["mode", "model", "memory"]);
    expect(
      slashSuggestions("e", commands)
        .map((c) => c.name)
        .slice(0, 3),
    ).toEqual(["expand", "export", "help"]);
    expect(slashSuggestions("mem", commands).map((c) => c.name)).toEqual(["memory"]);
    expect(slashSuggestions("zzz", commands)).toEqual([]);
  });

  it("only offers a menu while the cursor is in the command word", () => {
    expect(slashQuery("/mo", 3)).toBe("mo");
    expect(slashQuery("/mode code", 10)).toBeNull();
    expect(slashQuery("hello /mo", 9)).toBeNull();
  });

  it("completes the name and keeps arguments typed after it", () => {
    const review = commands.find((c) => c.name === "review")!;
    expect(completeSlash("/rev", review)).toEqual({ text: "/review ", cursor: 8 });
    expect(completeSlash("/re main", review)).toEqual({ text: "/review main", cursor: 8 });
    expect(parseSlash("/config model demo-smart ")).toEqual({ name: "config", args: "model demo-smart" });
    expect(parseSlash("not a command")).toBeNull();
  });

  it("draws the menu with the selection and which commands are the agent's", () => {
    const suggestions = slashSuggestions("re", commands);
    const review = suggestions.findIndex((c) => c.name === "review");
    const { lastFrame } = render(<SlashMenu commands={suggestions} selected={review} width={80} />);
    const frame = plain(lastFrame());
    expect(frame).toContain("/restart");
    expect(frame).toMatch(/› \/review branch\s+review the diff \(agent\)/);
  });
});

function Harness(props: { onSubmit: (text: string) => void; commands: ReturnType<typeof allSlashCommands> }) {
  const [store] = useState(() => new EditorStore());
  return (
    <InputEditor
      store={store}
      isActive
      width={80}
      maxLines={5}
      commands={props.commands}
      bracketedPaste={false}
      prompt="›"
      onSubmit={props.onSubmit}
    />
  );
}

describe("the slash menu in the input", () => {
  it("opens on /, moves with the arrows, completes with Tab and runs a bare command with Enter", async () => {
    const sent: string[] = [];
    const { stdin, lastFrame } = render(<Harness onSubmit={(t) => sent.push(t)} commands={allSlashCommands(agentCommands)} />);
    await tick();
    stdin.write("/mo");
    await tick();
    await until(() => expect(plain(lastFrame())).toMatch(/› \/mode \[mode id\]/));
    stdin.write(KEY.down);
    await tick();
    await until(() => expect(plain(lastFrame())).toMatch(/› \/model \[model id\]/));
    stdin.write(KEY.tab);
    await tick();
    await until(() => expect(plain(lastFrame())).toContain("› /model"));
    // The name is complete and the cursor is past it: the menu closed.
    await until(() => expect(plain(lastFrame())).not.toContain("tab complete"));

    stdin.write("\x15"); // Ctrl-U clears the line
    await until(() => expect(plain(lastFrame())).not.toContain("/model"));
    stdin.write("/qui");
    await until(() => expect(plain(lastFrame())).toContain("› /quit"));
    stdin.write(KEY.enter);
    await until(() => expect(sent).toEqual(["/quit"]));
  });

  it("Esc closes the menu without touching the text", async () => {
    const { stdin, lastFrame } = render(<Harness onSubmit={() => undefined} commands={allSlashCommands([])} />);
    await tick();
    stdin.write("/c");
    await tick();
    await until(() => expect(plain(lastFrame())).toContain("/clear"));
    stdin.write(KEY.escape);
    await tick(50);
    await until(() => expect(plain(lastFrame())).not.toContain("/clear"));
    await until(() => expect(plain(lastFrame())).toContain("› /c"));
  });
});
