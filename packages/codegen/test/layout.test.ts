// Compiles a program against the headers and checks the layout the contract states.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AbiStruct, abiHeadersRoot, errorEnum, readAbiModel } from '../src/index.js';
import { C_FLAGS, run, tempDir } from './support/cc.js';
import {
  CONTRACT_API_VERSION,
  CONTRACT_ENTRY_POINTS,
  CONTRACT_ERRORS,
  CONTRACT_STATE_PROVIDER,
  CONTRACT_STATE_PROVIDER_SIZE,
} from './support/contract-facts.js';

const model = readAbiModel();
const struct = model.headers
  .flatMap((h) => h.items)
  .find((i): i is AbiStruct => i.kind === 'struct' && i.name === 'entropic_state_provider_t')!;
const tmp = tempDir('entropic-layout');
afterAll(tmp.cleanup);

/** `char* (*)(int, void*)` with a name put in: `char* (*name)(int, void*)`. */
const named = (type: string, name: string) =>
  type.includes('(*)') ? type.replace('(*)', `(*${name})`) : `${type} ${name}`;

/**
 * A C program that prints what the compiler made of the generated headers. The typed pointer
 * assignments only compile (with -Werror) when every signature and member type is the
 * contract's, written out literally in the test.
 */
function program(): string {
  const names = new Set([
    ...CONTRACT_ERRORS.map(([n]) => n),
    ...errorEnum(model).enumerators.map((e) => e.name),
  ]);
  const members = new Set([...CONTRACT_STATE_PROVIDER.map(([n]) => n), ...struct.members.map((m) => m.name)]);
  const fnChecks = CONTRACT_ENTRY_POINTS.map(
    ([name, ret, params]) =>
      `    ${ret} (*check_${name})(${params.join(', ') || 'void'}) = ${name}; (void)check_${name};`,
  );
  const memberChecks = CONTRACT_STATE_PROVIDER.map(
    ([name, , type]) => `    ${named(type, `check_${name}`)} = p.${name}; (void)check_${name};`,
  );
  return `#include <entropic/interfaces/i_mcp_server.h>
#include <stddef.h>
#include <stdio.h>
int main(void) {
    entropic_state_provider_t p = {0};
${fnChecks.join('\n')}
${memberChecks.join('\n')}
    printf("version %d\\n", ENTROPIC_MCP_PLUGIN_API_VERSION);
    printf("sizeof %lu\\n", (unsigned long)sizeof(entropic_state_provider_t));
    printf("sizeof_error %lu\\n", (unsigned long)sizeof(entropic_error_t));
${[...names].map((n) => `    printf("enum ${n} %d\\n", (int)${n});`).join('\n')}
${[...members].map((m) => `    printf("offset ${m} %lu\\n", (unsigned long)offsetof(entropic_state_provider_t, ${m}));`).join('\n')}
    return 0;
}
`;
}

let facts: Map<string, number>;

beforeAll(() => {
  const source = join(tmp.dir, 'layout.c');
  writeFileSync(source, program());
  const exe = join(tmp.dir, 'layout');
  // Linked with the bare test plugin, which defines the entry points the pointer checks take.
  const plugin = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bare', 'bare-plugin.c');
  run('gcc', [...C_FLAGS, '-I', join(abiHeadersRoot(), 'include'), source, plugin, '-o', exe]);
  facts = new Map(
    run(exe, [])
      .trim()
      .split('\n')
      .map((line) => {
        const parts = line.split(' ');
        return [parts.slice(0, -1).join(' '), Number(parts[parts.length - 1])] as const;
      }),
  );
});

describe('compiled layout of the generated headers', () => {
  it('has the contract API version', () => {
    expect(facts.get('version')).toBe(CONTRACT_API_VERSION);
    expect(model.apiVersion).toBe(CONTRACT_API_VERSION);
  });

  it('has every error value of the contract, and the model agrees', () => {
    expect(errorEnum(model).enumerators.map((e) => [e.name, e.value])).toEqual(CONTRACT_ERRORS);
    for (const [name, value] of CONTRACT_ERRORS) expect(facts.get(`enum ${name}`), name).toBe(value);
    expect(facts.get('sizeof_error')).toBe(4);
  });

  it('lays out entropic_state_provider_t as the contract says (88 bytes on x86-64)', () => {
    expect(struct.members.map((m) => m.name)).toEqual(CONTRACT_STATE_PROVIDER.map(([n]) => n));
    if (process.arch === 'x64') {
      expect(facts.get('sizeof')).toBe(CONTRACT_STATE_PROVIDER_SIZE);
      for (const [name, offset] of CONTRACT_STATE_PROVIDER)
        expect(facts.get(`offset ${name}`), name).toBe(offset);
    }
  });
});
