// Which request headers serve hands to plugins: those that carry the caller's credentials only when told to.
import { UsageError } from './args.js';

/** Header names that carry credentials: authorization, cookies, and any named for a token, key, secret or session. */
const CREDENTIAL_HEADER =
  /^(?:proxy-)?authorization$|cookie|token|secret|passw|api-?key|credential|(?:^|-)auth(?:-|$)|(?:^|-)session(?:-|$)/;

/** The names in `headers` (lower case) that carry credentials. */
export function credentialHeaders(headers: readonly string[]): string[] {
  return headers.filter((name) => CREDENTIAL_HEADER.test(name));
}

/** Where each list of context headers came from, for the refusal to name. */
export interface ContextHeaderSources {
  /** `--context-header` values. */
  readonly flags: readonly string[];
  /** `mcp.context_headers` of the config file, and the file. */
  readonly file?: { readonly path: string; readonly headers: readonly string[] };
  /** `--context-header-allow-credentials` or `mcp.context_headers_allow_credentials: true`. */
  readonly allowCredentials: boolean;
}

/**
 * Refuses a context header that carries credentials (a plugin would receive the caller's token or cookie as it
 * is) unless credentials are allowed explicitly; the refusal names each header and where it was given.
 */
export function checkContextHeaders(sources: ContextHeaderSources): void {
  if (sources.allowCredentials) return;
  const given = [
    ...credentialHeaders(sources.flags).map((name) => `--context-header ${name}`),
    ...credentialHeaders(sources.file?.headers ?? []).map(
      (name) => `${name} in mcp.context_headers of ${sources.file?.path}`,
    ),
  ];
  if (given.length === 0) return;
  throw new UsageError(
    `refusing to hand request headers that carry credentials to plugins (${given.join(', ')}): a plugin would ` +
      'receive the caller’s credentials as they are. Give --context-header-allow-credentials (or set ' +
      'mcp.context_headers_allow_credentials to true) if the plugins are meant to have them',
  );
}

/** The start-up warning when credential-bearing context headers are allowed, or undefined when none is asked for. */
export function credentialHeadersWarning(headers: readonly string[]): string | undefined {
  const risky = credentialHeaders(headers);
  if (risky.length === 0) return undefined;
  return (
    `entropic-mcp serve: warning: plugins with the plugin context receive the request headers ${risky.join(', ')} ` +
    'as they are (--context-header-allow-credentials): the callers’ credentials reach plugin code\n'
  );
}
