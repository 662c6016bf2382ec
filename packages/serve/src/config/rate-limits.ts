// `--rate-limit` and `mcp.rate_limits`: requests a second per caller, as a default and per tool or method. The flag
// takes `[TOOL=]RATE[/BURST]` (repeatable); the file takes the same strings as a list, or a map with `default`,
// `tools`, `methods`, `key` and `on_store_failure`. Both read into the server's rate-limit options.
import type { Reader } from './values.js';

export interface RateRuleSetting {
  readonly rate: number;
  readonly burst?: number;
}

export interface RateLimitSettings {
  readonly default?: RateRuleSetting;
  readonly tools?: Readonly<Record<string, RateRuleSetting>>;
  readonly methods?: Readonly<Record<string, RateRuleSetting>>;
  readonly key?: 'address' | 'session';
  readonly onStoreFailure?: 'open' | 'closed';
}

const shown = (raw: unknown): string => JSON.stringify(raw) ?? String(raw);
const RATE = /^(\d+(?:\.\d+)?)(?:\/(\d+))?$/;
const MAP_KEYS = ['default', 'tools', 'methods', 'key', 'on_store_failure'];

/** `RATE[/BURST]` (a string) or `{rate, burst}` (a map): the rule, else an Error naming `where`. */
function ruleOf(raw: unknown, where: string): RateRuleSetting {
  if (typeof raw === 'string' || typeof raw === 'number') {
    const match = RATE.exec(String(raw).trim());
    const rate = Number(match?.[1]);
    if (match !== null && rate > 0)
      return match[2] === undefined ? { rate } : { rate, burst: Number(match[2]) };
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const { rate, burst, ...rest } = raw as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new Error(`${where} has unknown key ${shown(extra[0])} (known: rate, burst)`);
    const okBurst = burst === undefined || (Number.isSafeInteger(burst) && (burst as number) >= 1);
    if (typeof rate === 'number' && rate > 0 && Number.isFinite(rate) && okBurst)
      return burst === undefined ? { rate } : { rate, burst: burst as number };
  }
  throw new Error(
    `${where} expects requests a second above 0 and an optional whole burst (RATE[/BURST], or {rate, burst}), got ${shown(raw)}`,
  );
}

function rulesOf(raw: unknown, where: string): Record<string, RateRuleSetting> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error(`${where} expects a map of names to rules, got ${shown(raw)}`);
  return Object.fromEntries(
    Object.entries(raw).map(([name, rule]) => [name, ruleOf(rule, `${where}.${name}`)]),
  );
}

/** The flag's strings (or the file's list of them): `RATE[/BURST]` is the default, `TOOL=RATE[/BURST]` a tool's. */
function fromStrings(texts: readonly unknown[], name: string): RateLimitSettings {
  let fallback: RateRuleSetting | undefined;
  const tools: Record<string, RateRuleSetting> = {};
  for (const text of texts) {
    if (typeof text !== 'string') throw new Error(`${name} expects [TOOL=]RATE[/BURST], got ${shown(text)}`);
    const eq = text.lastIndexOf('=');
    if (eq < 0) fallback = ruleOf(text, name);
    else if (eq === 0) throw new Error(`${name} expects [TOOL=]RATE[/BURST], got ${shown(text)}`);
    else tools[text.slice(0, eq).trim()] = ruleOf(text.slice(eq + 1), `${name} ${text.slice(0, eq).trim()}`);
  }
  return {
    ...(fallback === undefined ? {} : { default: fallback }),
    ...(Object.keys(tools).length === 0 ? {} : { tools }),
  };
}

export const rateLimits: Reader<RateLimitSettings> = (raw, name) => {
  if (typeof raw === 'string') return fromStrings([raw], name);
  if (Array.isArray(raw)) return fromStrings(raw, name);
  if (typeof raw !== 'object' || raw === null)
    throw new Error(
      `${name} expects [TOOL=]RATE[/BURST] or a map (default, tools, methods), got ${shown(raw)}`,
    );
  const map = raw as Record<string, unknown>;
  const unknown = Object.keys(map).find((key) => !MAP_KEYS.includes(key));
  if (unknown !== undefined)
    throw new Error(`${name} has unknown key ${shown(unknown)} (known: ${MAP_KEYS.join(', ')})`);
  if (map.key !== undefined && map.key !== 'address' && map.key !== 'session')
    throw new Error(`${name}.key expects address or session, got ${shown(map.key)}`);
  const failure = map.on_store_failure;
  if (failure !== undefined && failure !== 'open' && failure !== 'closed')
    throw new Error(`${name}.on_store_failure expects open or closed, got ${shown(failure)}`);
  return {
    ...(map.default === undefined ? {} : { default: ruleOf(map.default, `${name}.default`) }),
    ...(map.tools === undefined ? {} : { tools: rulesOf(map.tools, `${name}.tools`) }),
    ...(map.methods === undefined ? {} : { methods: rulesOf(map.methods, `${name}.methods`) }),
    ...(map.key === undefined ? {} : { key: map.key as 'address' | 'session' }),
    ...(failure === undefined ? {} : { onStoreFailure: failure as 'open' | 'closed' }),
  };
};
