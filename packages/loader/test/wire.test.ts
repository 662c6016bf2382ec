/**
 * The plugin wire at its two native ends, the host process and the in-process instance thread, driven with
 * request text: both recognise the same plain answers, both answer in order, and the host reassembles
 * requests however the pipe slices them and refuses malformed ones by name.
 */

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorValue } from '../src/base/abi.js';
import { Op, requestText, Status } from '../src/wire/frames.js';
import { buildFixtures } from './support/inprocess-helpers.js';
import { addonEndpoint, hostEndpoint, type WireEndpoint } from './support/wire-endpoints.js';

beforeAll(() => buildFixtures());

/** Answers the `verbatim` tool gives back as they are, with the frame each must travel in. */
const ANSWERS: [answer: string, status: number, payload: string][] = [
  ['{"result":"plain text"}', Status.plain, 'plain text'],
  ['{"result":"plain","directives":[]}', Status.plain, 'plain'],
  ['{"result":""}', Status.plain, ''],
  ['{"result":"café 😀 \u2028 </b>"}', Status.plain, 'café 😀 \u2028 </b>'],
  ['{"result":"with \\"quote\\""}', Status.string, '{"result":"with \\"quote\\""}'],
  ['{"result":"slash \\/"}', Status.string, '{"result":"slash \\/"}'],
  ['{"result":"x","directives":[{"type":"stop_processing"}]}', Status.string, ''],
  ['{"result": "spaced"}', Status.string, ''],
  ['{"result":"tab\there"}', Status.string, ''],
  ['{"result":"x"} and more', Status.string, ''],
  ['{"result":"x","directives":[] }', Status.string, ''],
  ['{"result":"no end', Status.string, ''],
];

function verbatimRequests(): string {
  return ANSWERS.map(([answer], i) => requestText(i + 1, Op.execute, 'verbatim', answer)).join('');
}

describe.each([
  ['host process', (path: string): WireEndpoint => hostEndpoint(path)],
  ['in-process instance', (path: string): WireEndpoint => addonEndpoint(path)],
])('plugin wire: %s', (_name, open) => {
  it('loads, then answers every request in order; a compact answer needing no unescaping travels plain', async () => {
    const end = open(fixture('raw-answers'));
    end.send(verbatimRequests());
    const frames = await end.frames(1 + ANSWERS.length);
    expect(frames[0]).toMatchObject({ id: 0, status: Status.ready });
    expect(frames[0]!.payload.toString('utf8', 4)).toBe('raw');
    ANSWERS.forEach(([answer, status, payload], i) => {
      const frame = frames[i + 1]!;
      expect({ id: frame.id, status: frame.status }).toEqual({ id: i + 1, status });
      expect(frame.payload.toString()).toBe(status === Status.string ? answer : payload);
    });
    await end.end();
  });

  it('answers configure, set_working_dir and list_tools with their own frames, and close last', async () => {
    const end = open(fixture('raw-answers'));
    end.send(
      requestText(1, Op.configure, '{"reject":true}') +
        requestText(2, Op.setWorkingDir, '/tmp/missing') +
        requestText(3, Op.listTools) +
        requestText(4, Op.close),
    );
    const [, configure, dir, list, close] = await end.frames(5);
    expect(configure).toMatchObject({ id: 1, status: Status.code });
    expect(configure!.payload.readInt32LE(0)).toBe(errorValue('ENTROPIC_ERROR_INVALID_CONFIG'));
    expect(dir!.payload.readInt32LE(0)).toBe(errorValue('ENTROPIC_ERROR_IO'));
    expect(list).toMatchObject({ id: 3, status: Status.string });
    expect(JSON.parse(list!.payload.toString()).map((t: { name: string }) => t.name)).toContain('verbatim');
    expect(close).toMatchObject({ id: 4, status: Status.code });
    await end.end();
  });
});

describe('plugin wire: the host reading its pipe', () => {
  it('reassembles requests split anywhere, a 5 MB request among them', async () => {
    const end = hostEndpoint(fixture('raw-answers'));
    const big = `{"result":"${'y'.repeat(5 * 1024 * 1024)}"}`;
    const text = Buffer.from(
      requestText(1, Op.execute, 'verbatim', '{"result":"é1"}') +
        requestText(2, Op.execute, 'verbatim', big) +
        requestText(3, Op.execute, 'verbatim', '{"result":"3"}'),
    );
    // Uneven pieces, each written on its own turn, so the host reads partial heads, parts and UTF-8 sequences.
    for (let at = 0, step = 1; at < text.length; at += step, step = step * 3 + 7) {
      end.send(text.subarray(at, Math.min(text.length, at + step)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const frames = await end.frames(4);
    expect(frames.slice(1).map((f) => [f.id, f.status, f.payload.length])).toEqual([
      [1, Status.plain, 3],
      [2, Status.plain, 5 * 1024 * 1024],
      [3, Status.plain, 1],
    ]);
    expect(frames[1]!.payload.toString()).toBe('é1');
    expect((await end.end()).code).toBe(0);
  });

  it('refuses a malformed request by name and exits', async () => {
    for (const bad of ['Q1\0', 'E\0echo\0{}\0', 'E12x\0echo\0{}\0', `E${'9'.repeat(11)}\0`, 'x'.repeat(40)]) {
      const end = hostEndpoint(fixture('raw-answers'));
      end.send(bad);
      const { code, stderr } = await end.end();
      expect(code).toBe(1);
      expect(stderr).toContain('malformed request from the loader');
    }
  });
});
