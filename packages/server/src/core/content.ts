/** Helpers that build content blocks for tool results and prompt messages. */

import type {
  Annotations,
  AudioContent,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from './types.js';

export function text(value: string, annotations?: Annotations): TextContent {
  return annotations ? { type: 'text', text: value, annotations } : { type: 'text', text: value };
}

/** `data` is base64. */
export function image(data: string, mimeType: string, annotations?: Annotations): ImageContent {
  return annotations ? { type: 'image', data, mimeType, annotations } : { type: 'image', data, mimeType };
}

/** `data` is base64. */
export function audio(data: string, mimeType: string, annotations?: Annotations): AudioContent {
  return annotations ? { type: 'audio', data, mimeType, annotations } : { type: 'audio', data, mimeType };
}

export function resource(contents: ResourceContents, annotations?: Annotations): EmbeddedResource {
  return annotations
    ? { type: 'resource', resource: contents, annotations }
    : { type: 'resource', resource: contents };
}

export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  return { type: 'resource_link', ...link };
}
