// The steps for an ABI change are written once (src/check/steps.ts): the docs must show those lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSteps } from '../src/check/steps.js';
import { WORKSPACE } from './support/check-scenario.js';

const DOCS = ['docs/abi.md', 'RELEASING.md'];

describe('the documented steps are the steps the gate prints and the mutation tests run', () => {
  for (const doc of DOCS) {
    it(`${doc} shows both step lists verbatim`, () => {
      const text = readFileSync(join(WORKSPACE, doc), 'utf8');
      for (const kind of ['additive', 'breaking'] as const)
        expect(text, `${doc}: ${kind} steps`).toContain(`\`\`\`sh\n${renderSteps(kind)}\n\`\`\``);
      expect(text).not.toMatch(/entropic-abi abi-dump --update`? *(after|then)/);
    });
  }
});
