/**
 * Generators shared by the fuzz tests: JSON-RPC frames each paired with the answer the server owes
 * (an oracle), so a property can check "each valid request is answered exactly once with the right
 * code", plus raw garbage with no oracle. Frames are bytes so the stdio test can send invalid UTF-8.
 * Ids are given at build time (unique per run), never by the generator, so shrinking keeps them apart.
 */
import fc from 'fast-check';

/** What one id must receive: a result that passes `result`, or an error with `code`. */
export interface Expected {
  readonly code?: number;
  readonly result?: (result: unknown) => boolean;
}

export interface BuiltCase {
  /** Each frame without its line ending. */
  readonly frames: Buffer[];
  /** Answers owed per id, in any order. */
  readonly expects: Map<string | number, Expected[]>;
  /** Errors owed with `id: null` (parse errors, unusable ids, refused batches, oversized frames). */
  readonly nulls: number;
}

export interface CaseOptions {
  /** Protocol version the connection negotiated: 2025-03-26 serves batches, later ones refuse them. */
  readonly batches: boolean;
  /** The frame cap of the server under test (stdio), or undefined where frames are not capped. */
  readonly maxFrameBytes?: number;
}

type Build = (
  id: () => string,
  o: CaseOptions,
) => { frames: Buffer[]; expects: [string | number, Expected][]; nulls: number };

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const req = (id: unknown, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
const code = (c: number): Expected => ({ code: c });
const isEmpty = (r: unknown) => typeof r === 'object' && r !== null && Object.keys(r).length === 0;
const echoed = (text: string) => (r: unknown) =>
  (r as { content?: { text?: unknown }[] }).content?.[0]?.text === text;

const one = (frame: Buffer, id: string | number | null, e: Expected) => ({
  frames: [frame],
  expects: id === null ? [] : ([[id, e]] as [string | number, Expected][]),
  nulls: id === null ? 1 : 0,
});

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

const nonString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
);
const nonObject = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 10 }));
const badId = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
);

const KNOWN = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
]);

/** Text of `depth` nested containers (arrays and objects in turn) around a 0, built without recursion. */
function nested(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += i % 2 === 0 ? '[' : '{"k":';
    close = (i % 2 === 0 ? ']' : '}') + close;
  }
  return `${open}0${close}`;
}

/** Frames with an oracle. */
export const oracleCase: fc.Arbitrary<Build> = fc.oneof(
  fc.constant<Build>((id) => {
    const i = id();
    return one(json(req(i, 'ping')), i, { result: isEmpty });
  }),
  text.map<Build>((t) => (id) => {
    const i = id();
    return one(json(req(i, 'tools/call', { name: 'echo', arguments: { text: t } })), i, {
      result: echoed(t),
    });
  }),
  fc
    .string({ maxLength: 30 })
    .filter((m) => !KNOWN.has(m))
    .map<Build>((m) => (id) => {
      const i = id();
      return one(json(req(i, m, {})), i, code(-32601));
    }),
  // Wrong types in every field.
  fc
    .jsonValue()
    .filter((v) => v !== '2.0')
    .map<Build>((v) => (id) => {
      const i = id();
      return one(json({ jsonrpc: v, id: i, method: 'ping' }), i, code(-32600));
    }),
  nonString
    .filter((v) => v !== undefined)
    .map<Build>((v) => (id) => {
      const i = id();
      return one(json({ jsonrpc: '2.0', id: i, method: v }), i, code(-32600));
    }),
  badId.map<Build>((v) => () => one(json({ jsonrpc: '2.0', id: v, method: 'ping' }), null, code(-32600))),
  nonObject.map<Build>((v) => (id) => {
    const i = id();
    return one(json(req(i, 'ping', v)), i, code(-32600));
  }),
  fc.array(fc.jsonValue(), { maxLength: 3 }).map<Build>((v) => (id) => {
    const i = id();
    return one(json(req(i, 'tools/list', v)), i, code(-32602));
  }),
  nonString.map<Build>((v) => (id) => {
    const i = id();
    return one(json(req(i, 'tools/call', { name: v, arguments: {} })), i, code(-32602));
  }),
  fc
    .oneof(fc.integer(), fc.string(), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }))
    .map<Build>((v) => (id) => {
      const i = id();
      return one(json(req(i, 'tools/call', { name: 'echo', arguments: v })), i, code(-32602));
    }),
  // Handler errors become -32603; numbers JSON cannot hold become an unusable id.
  fc.constant<Build>((id) => {
    const i = id();
    return one(json(req(i, 'tools/call', { name: 'boom', arguments: {} })), i, code(-32603));
  }),
  fc
    .constantFrom('1e400', '-1e999')
    .map<Build>(
      (n) => () => one(Buffer.from(`{"jsonrpc":"2.0","id":${n},"method":"ping"}`), null, code(-32600)),
    ),
  fc.constantFrom(1e300, -1e-300, 2 ** 53 - 1, -(2 ** 31), 0).map<Build>((n) => () => ({
    frames: [json(req(n, 'ping'))],
    expects: [[n, { result: isEmpty }]],
    nulls: 0,
  })),
  fc.constantFrom('1e400', '123456789012345678901234567890', '-0.0000001e-400').map<Build>((n) => (id) => {
    const i = id();
    const frame = Buffer.from(
      `{"jsonrpc":"2.0","id":"${i}","method":"tools/call","params":{"name":"echo","arguments":{"text":"n","n":${n}}}}`,
    );
    return one(frame, i, { result: echoed('n') });
  }),
  // Depth and width caps.
  fc.integer({ min: 66, max: 5_000 }).map<Build>((d) => (id) => {
    const i = id();
    return one(
      Buffer.from(`{"jsonrpc":"2.0","id":"${i}","method":"ping","params":{"deep":${nested(d)}}}`),
      i,
      code(-32600),
    );
  }),
  fc.integer({ min: 1, max: 55 }).map<Build>((d) => (id) => {
    const i = id();
    const frame = `{"jsonrpc":"2.0","id":"${i}","method":"tools/call","params":{"name":"echo","arguments":{"text":"d","deep":${nested(d)}}}}`;
    return one(Buffer.from(frame), i, { result: echoed('d') });
  }),
  fc.constant<Build>((id) => {
    const i = id();
    return one(json(req(i, 'ping', { wide: new Array(100_001).fill(0) })), i, code(-32600));
  }),
  // Invalid UTF-8 inside a string: decoded with replacement characters, then served.
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map<Build>((bytes) => (id) => {
    const i = id();
    const clean = Buffer.from(bytes.map((b) => (b < 0x20 || b === 0x22 || b === 0x5c ? 0x41 : b)));
    const frame = Buffer.concat([
      Buffer.from(
        `{"jsonrpc":"2.0","id":"${i}","method":"tools/call","params":{"name":"echo","arguments":{"text":"`,
      ),
      clean,
      Buffer.from('"}}}'),
    ]);
    return one(frame, i, { result: echoed(clean.toString('utf8')) });
  }),
  // Truncated frames: any proper prefix of a request is not JSON.
  fc.integer({ min: 1, max: 200 }).map<Build>((cut) => (id) => {
    const full = json(req(id(), 'tools/call', { name: 'echo', arguments: { text: 'truncated' } }));
    const frame = full.subarray(0, Math.min(cut, full.length - 1));
    return frame.toString().trim() === ''
      ? { frames: [], expects: [], nulls: 0 }
      : one(frame, null, code(-32700));
  }),
  // Duplicate ids: the second arrives while the first runs.
  fc.integer({ min: 150, max: 200 }).map<Build>((ms) => (id) => {
    const i = id();
    const call = json(req(i, 'tools/call', { name: 'sleep', arguments: { ms } }));
    return {
      frames: [call, call],
      expects: [
        [i, { result: echoed('slept') }],
        [i, code(-32600)],
      ],
      nulls: 0,
    };
  }),
  // Notifications and stray responses are never answered.
  fc.string({ maxLength: 20 }).map<Build>((m) => () => ({
    frames: [json({ jsonrpc: '2.0', method: `notifications/${m}` })],
    expects: [],
    nulls: 0,
  })),
  fc.jsonValue().map<Build>((v) => (id) => ({
    frames: [json({ jsonrpc: '2.0', id: id(), result: v })],
    expects: [],
    nulls: 0,
  })),
  // Batches, empty and oversized included.
  fc.constant<Build>(() => ({ frames: [Buffer.from('[]')], expects: [], nulls: 1 })),
  fc.constant<Build>(() => ({ frames: [json(new Array(100_001).fill(1))], expects: [], nulls: 1 })),
  fc.integer({ min: 1, max: 6 }).map<Build>((n) => (id, o) => {
    const ids = Array.from({ length: n }, id);
    const frame = json(ids.map((i, k) => (k % 2 ? req(i, 'ping') : req(i, 'nope/x'))));
    if (!o.batches) return { frames: [frame], expects: [], nulls: 1 };
    return {
      frames: [frame],
      expects: ids.map((i, k) => [i, k % 2 ? { result: isEmpty } : code(-32601)] as [string, Expected]),
      nulls: 0,
    };
  }),
  fc
    .array(fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })), {
      minLength: 1,
      maxLength: 4,
    })
    .map<Build>((items) => () => ({ frames: [json(items)], expects: [], nulls: 1 })),
  // A batch over the depth cap: every request in it is answered -32600 by its id.
  fc.integer({ min: 66, max: 300 }).map<Build>((d) => (id) => {
    const a = id();
    const b = id();
    const frame = `[{"jsonrpc":"2.0","id":"${a}","method":"ping","params":{"d":${nested(d)}}},{"jsonrpc":"2.0","id":"${b}","method":"ping"}]`;
    return {
      frames: [Buffer.from(frame)],
      expects: [
        [a, code(-32600)],
        [b, code(-32600)],
      ],
      nulls: 0,
    };
  }),
  // Oversized frames (stdio): answered -32600 with id null and skipped.
  fc.constant<Build>((id, o) => {
    if (o.maxFrameBytes === undefined) return { frames: [], expects: [], nulls: 0 };
    const frame = json(
      req(id(), 'tools/call', { name: 'echo', arguments: { text: 'y'.repeat(o.maxFrameBytes) } }),
    );
    return { frames: [frame], expects: [], nulls: 1 };
  }),
);

/** Build a sequence of cases into one: frames in order, expectations merged. */
export function buildCases(builds: Build[], id: () => string, o: CaseOptions): BuiltCase {
  const frames: Buffer[] = [];
  const expects = new Map<string | number, Expected[]>();
  let nulls = 0;
  for (const b of builds) {
    const c = b(id, o);
    frames.push(...c.frames);
    nulls += c.nulls;
    for (const [k, e] of c.expects) expects.set(k, [...(expects.get(k) ?? []), e]);
  }
  return { frames, expects, nulls };
}

/** Raw garbage: random bytes, newlines, CRs, fragments of JSON, high bytes. No oracle. */
export const garbage: fc.Arbitrary<Buffer> = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
      fc
        .constantFrom(
          '\n',
          '\r\n',
          '\r',
          '{',
          '}',
          '[',
          ']',
          '"',
          '\\',
          ',',
          ':',
          '{"jsonrpc":"2.0",',
          '"id":',
          '"method":"ping"',
          '\xff',
          '\u0000',
        )
        .map((s) => Buffer.from(s, 'latin1')),
      fc.jsonValue().map((v) => json(v)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Buffer.concat(parts));

/** Joins frames with random line endings and blank lines, then cuts the bytes into random chunks. */
export const framing = fc.record({
  endings: fc.array(fc.constantFrom('\n', '\r\n', '\n\n', '\r\n\r\n'), { minLength: 1, maxLength: 8 }),
  cuts: fc.array(fc.nat(), { maxLength: 6 }),
});

export function frameBytes(frames: Buffer[], layout: { endings: string[]; cuts: number[] }): Buffer[] {
  const joined = Buffer.concat(
    frames.flatMap((f, i) => [f, Buffer.from(layout.endings[i % layout.endings.length] ?? '\n')]),
  );
  const points = [...new Set(layout.cuts.map((c) => (joined.length === 0 ? 0 : c % joined.length)))].sort(
    (a, b) => a - b,
  );
  const chunks: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    if (p > at) chunks.push(joined.subarray(at, p));
    at = Math.max(at, p);
  }
  if (at < joined.length) chunks.push(joined.subarray(at));
  return chunks;
}

export const RUNS = Number(process.env.FUZZ_RUNS ?? 0);
/** Runs of a property: FUZZ_RUNS when set (the long mode), otherwise `fallback`. */
export const runs = (fallback: number): number => (RUNS > 0 ? RUNS : fallback);
/** A test time limit fitting the run count (no limit in the long mode). */
export const timeLimit = (fallback: number): number => (RUNS > 0 ? 0 : fallback);
