/** Resources, the resource template and the prompts the conformance scenarios read. */

import { image, type McpServer, resource, text } from '@entropic-mcp/server';
import { RED_PIXEL_PNG } from './media.js';

export function addResources(server: McpServer): void {
  server.addResource(
    {
      uri: 'test://static-text',
      name: 'Static text',
      description: 'A static text resource',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  );
  server.addResource(
    {
      uri: 'test://static-binary',
      name: 'Static binary',
      description: 'A static binary resource (PNG)',
      mimeType: 'image/png',
    },
    (uri) => [{ uri, mimeType: 'image/png', blob: RED_PIXEL_PNG }],
  );
  server.addResource(
    {
      uri: 'test://watched-resource',
      name: 'Watched resource',
      description: 'A resource clients may subscribe to',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: 'Watched resource content.' }],
  );
  server.addResourceTemplate(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'Template data',
      description: 'Data for an id',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const id = String(variables.id);
      return [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ];
    },
  );
}

export function addPrompts(server: McpServer): void {
  server.addPrompt({ name: 'test_simple_prompt', description: 'A prompt without arguments' }, () => [
    { role: 'user', content: text('This is a simple prompt for testing.') },
  ]);
  server.addPrompt(
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      complete: {
        arg1: (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value)),
      },
    },
    (args) => [
      { role: 'user', content: text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`) },
    ],
  );
  server.addPrompt(
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt embedding a resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    (args) => [
      {
        role: 'user',
        content: resource({
          uri: String(args.resourceUri),
          mimeType: 'text/plain',
          text: 'Embedded resource content for testing.',
        }),
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ],
  );
  server.addPrompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' }, () => [
    { role: 'user', content: image(RED_PIXEL_PNG, 'image/png') },
    { role: 'user', content: text('Please analyze the image above.') },
  ]);
}
