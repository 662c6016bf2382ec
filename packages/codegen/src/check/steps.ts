// The documented steps for an ABI change, in one place: the gate's messages print them, the READMEs and
// RELEASING.md show them (a test checks the text), and the mutation tests run exactly these steps.
import { ABI_HEADERS_PACKAGE } from './release.js';

export type StepKind = 'additive' | 'breaking';

export type Step =
  /** Raise ENTROPIC_MCP_PLUGIN_API_VERSION by one in the definitions. */
  | { kind: 'bump'; text: string }
  /** An `entropic-abi` command with its arguments. */
  | { kind: 'command'; argv: string[]; text: string }
  /** A changeset for abi-headers of this bump type (`pnpm changeset` asks for it). */
  | { kind: 'changeset'; bump: 'minor' | 'major'; text: string };

const VERSION_FILE = 'packages/abi-headers/src/abi/mcp_server.ts';

const command = (name: string, what: string): Step => ({
  kind: 'command',
  argv: [name],
  text: `${`pnpm exec entropic-abi ${name}`.padEnd(34)}# ${what}`,
});
const changeset = (bump: 'minor' | 'major'): Step => ({
  kind: 'changeset',
  bump,
  text: `${'pnpm changeset'.padEnd(34)}# ${bump} for ${ABI_HEADERS_PACKAGE}`,
});

const GENERATE = command('generate', 'headers and loader tables from the definitions');
const LOCK = command('lock', 'abi.lock.json and the binary reference abi/*.abi');

/** After editing `packages/abi-headers/src/abi/*.ts`, in this order. */
export const STEPS: Record<StepKind, Step[]> = {
  additive: [GENERATE, LOCK, changeset('minor')],
  breaking: [
    { kind: 'bump', text: `# raise ENTROPIC_MCP_PLUGIN_API_VERSION by one in ${VERSION_FILE}` },
    GENERATE,
    LOCK,
    changeset('major'),
  ],
};

/** The steps as the shell block the docs show and the messages print. */
export function renderSteps(kind: StepKind, indent = ''): string {
  return STEPS[kind].map((s) => `${indent}${s.text}`).join('\n');
}
