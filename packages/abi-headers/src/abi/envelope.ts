// Facts about the JSON that crosses the plugin boundary. They generate no header; the loader
// reads them from the generated tables.

/**
 * The directive type names of a ServerResponse envelope, by their index.
 *
 * A directive object carries only its type, as {"type":"<name>"}; any parameters travel inside
 * the envelope's "result" string as JSON.
 */
export declare const DIRECTIVE_TYPES: [
  'stop_processing',
  'tier_change',
  'delegate',
  'pipeline',
  'complete',
  'clear_self_todos',
  'inject_context',
  'prune_messages',
  'context_anchor',
  'phase_change',
  'notify_presenter',
];
