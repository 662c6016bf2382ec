// What @entropic-mcp/serve builds on beyond the public surface (`@entropic-mcp/loader/internal`): the did-you-mean
// lookup, the sandbox option checks, the plugin events telemetry listens to (and the OpenTelemetry API, loaded
// only once something is registered with it) and the symbol check of a library.
// It moves with serve, release by release; an application outside this workspace should not import it.

export { type Otel, otelApi, otelInUse } from './base/otel-api.js';
export { closest, didYouMean } from './base/suggest.js';
export { onPluginEvent, type PluginEvent } from './base/telemetry.js';
export { checkSandboxOptions } from './sandbox/options.js';
export { checkSymbols, type SymbolVerdict, symbolsOk } from './verify/check-symbols.js';
