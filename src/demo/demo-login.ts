import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { RequestError, type AuthMethod } from "@agentclientprotocol/sdk";
import type { DemoConfig } from "./demo-config.js";

const AGENT_METHOD = "demo-login";
const TERMINAL_METHOD = "demo-terminal-login";

/**
 * The demo's pretend login, so conch's auth flow can be seen and tested: one method the agent
 * completes itself (`authenticate`), one that needs a login command run in a terminal (offered
 * only to clients that advertise `auth.terminal`). A login is needed when the demo was started
 * with `CONCH_DEMO_AUTH=1`, or after `logout`.
 */
export class DemoLogin {
  private authenticated = false;
  private loggedOut = false;

  constructor(private readonly config: DemoConfig) {}

  private tokenFile(): string {
    return join(this.config.stateDir, "login-token");
  }

  /** The auth methods `initialize` advertises; the terminal one only to a client that can run it. */
  methods(terminal: boolean): AuthMethod[] {
    return [
      { id: AGENT_METHOD, name: "Demo login", description: "the demo agent logs you in itself" },
      ...(terminal
        ? [
            {
              id: TERMINAL_METHOD,
              name: "Demo login in a terminal",
              description: "type a password into the demo's login command",
              type: "terminal",
              args: ["--login"],
            } as AuthMethod,
          ]
        : []),
    ];
  }

  loggedIn(): boolean {
    return (!this.config.requireAuth && !this.loggedOut) || this.authenticated || existsSync(this.tokenFile());
  }

  /** `logout`: forgets the login (and the terminal login's token); sessions need a login again. */
  logout(): void {
    this.authenticated = false;
    this.loggedOut = true;
    rmSync(this.tokenFile(), { force: true });
  }

  /** `authenticate`: the agent method always works; the terminal one works once its command ran. */
  authenticate(methodId: string): void {
    if (methodId === AGENT_METHOD) this.authenticated = true;
    else if (methodId === TERMINAL_METHOD && existsSync(this.tokenFile())) this.authenticated = true;
    else
      throw RequestError.invalidParams(
        undefined,
        `cannot log in with ${methodId}${methodId === TERMINAL_METHOD ? ": run the login command first" : ""}`,
      );
  }
}

/** `node dist/demo/main.js --login`: asks for a password on the terminal and saves a token. */
export async function runLoginCommand(config: DemoConfig): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const password = await new Promise<string>((resolve) => rl.question("conch demo login\nPassword (anything works): ", resolve));
  rl.close();
  if (!password.trim()) {
    process.stdout.write("No password given; not logged in.\n");
    return 1;
  }
  mkdirSync(config.stateDir, { recursive: true });
  writeFileSync(join(config.stateDir, "login-token"), "demo-token\n", { mode: 0o600 });
  process.stdout.write("Logged in.\n");
  return 0;
}
