import { chmodSync, mkdirSync, statSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { targetOf } from "../../src/cli/control-setup.js";
import { ControlClient } from "../../src/control/control-client.js";
import { encodeMessage } from "../../src/control/control-protocol.js";
import { ControlServer } from "../../src/control/control-server.js";
import { ensureOwnPrivateDir, readToken } from "../../src/control/control-socket.js";
import { flush, startWithFake } from "../orchestrator/fake-agent.js";
import { tempDir } from "../support/run-conch.js";
import { untilState } from "../support/until-state.js";

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

async function serve() {
  const { orch, agent } = await startWithFake();
  const server = await ControlServer.start(targetOf(orch), tempDir());
  open.push(server);
  return { orch, agent, server, socket: server.endpoint.socketPath };
}

/** A raw connection that says `lines` and then is cut off (`kill -9` of the attached conch). */
function rawSay(socketPath: string, text: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(socketPath);
    let got = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => (got += d));
    s.on("connect", () => {
      s.write(text, () =>
        setTimeout(() => {
          s.destroy();
          resolve(got);
        }, 50),
      );
    });
  });
}

describe("the control socket: another terminal of the same user acts in a running session", () => {
  it("lives in a directory of the user's own, 0700, the socket and its token 0600", async () => {
    const { socket, server } = await serve();
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(server.endpoint.tokenPath).mode & 0o777).toBe(0o600);
  });

  it("refuses a directory open to others", () => {
    const dir = path.join(tempDir(), "open");
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(() => ensureOwnPrivateDir(dir)).toThrow(/open to other users \(mode 755\)/);
    expect(() => ensureOwnPrivateDir(path.join(tempDir(), "fresh"))).not.toThrow();
  });

  it("a permission answered from the other terminal reaches the agent, and the owner's session says who answered (beside the transcript)", async () => {
    const { orch, agent, socket } = await serve();
    orch.send("go");
    const asked = agent.ask(1, "c1");
    await untilState(orch, (s) => s.permissions.length === 1);
    const client = await ControlClient.connect(socket, "s1");
    open.push(client);
    const key = orch.state.permissions[0].key;
    expect(await client.send({ kind: "answer_permission", key, optionId: "yes" })).toEqual({});
    expect(await asked.answer).toEqual({ outcome: { outcome: "selected", optionId: "yes" } });
    expect(orch.state.remoteWriter).toMatchObject({ pid: process.pid, did: "answered allow once (run c1)" });
    // Nothing goes into the transcript: a line there could cut a streaming answer in two.
    expect(orch.state.items.filter((i) => i.kind === "notice")).toEqual([]);
  });

  it("a wrong token, a wrong session and a second writer are refused", async () => {
    const { socket } = await serve();
    expect(await rawSay(socket, encodeMessage({ t: "hello", v: 1, token: "nope", sessionId: "s1", pid: 1 }))).toContain(
      "token does not match",
    );
    await expect(ControlClient.connect(socket, "another")).rejects.toThrow(/now runs session s1/);
    const first = await ControlClient.connect(socket, "s1");
    open.push(first);
    await expect(ControlClient.connect(socket, "s1")).rejects.toThrow(/another terminal \(conch pid \d+\) is attached to write/);
    first.close();
    await flush();
    await new Promise((r) => setTimeout(r, 20));
    const again = await ControlClient.connect(socket, "s1");
    open.push(again);
  });

  it("an attached terminal killed mid-answer changes nothing: the half-sent answer is dropped, the request still waits, a new writer may answer", async () => {
    const { orch, agent, socket } = await serve();
    orch.send("go");
    const asked = agent.ask(1, "c1");
    await untilState(orch, (s) => s.permissions.length === 1);
    const key = orch.state.permissions[0].key;
    const hello = encodeMessage({ t: "hello", v: 1, token: readToken(socket), sessionId: "s1", pid: 99 });
    const answer = encodeMessage({ t: "intent", id: 1, intent: { kind: "answer_permission", key, optionId: "yes" } });
    await rawSay(socket, hello + answer.slice(0, answer.length - 10));
    await untilState(orch, (s) => s.remoteWriter?.pid === 99);
    await untilState(orch, (s) => s.remoteWriter === undefined);
    expect(orch.state.permissions).toHaveLength(1);
    const client = await ControlClient.connect(socket, "s1");
    open.push(client);
    await client.send({ kind: "answer_permission", key, optionId: "no" });
    expect(await asked.answer).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
  });

  it("the owner gone, an intent says it was not confirmed: nothing is lost without a word", async () => {
    const { socket, server } = await serve();
    const client = await ControlClient.connect(socket, "s1");
    open.push(client);
    server.close();
    await new Promise((r) => client.onClose(r));
    expect((await client.send({ kind: "cancel" })).error).toMatch(/has gone/);
  });
});
