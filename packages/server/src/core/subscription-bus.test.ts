/** The in-memory subscription bus, and the server publishing registry changes on its bus. */

import { describe, expect, it } from 'vitest';
import { McpServer } from './server.js';
import { InMemorySubscriptionBus, isSubscriptionEvent, type SubscriptionEvent } from './subscription-bus.js';

describe('InMemorySubscriptionBus', () => {
  it('delivers each event to every listener until it unsubscribes', () => {
    const bus = new InMemorySubscriptionBus();
    const a: SubscriptionEvent[] = [];
    const b: SubscriptionEvent[] = [];
    const stopA = bus.subscribe((e) => a.push(e));
    bus.subscribe((e) => b.push(e));
    bus.publish({ type: 'toolsListChanged' });
    stopA();
    stopA();
    bus.publish({ type: 'resourceUpdated', uri: 'file:///x' });
    expect(a).toEqual([{ type: 'toolsListChanged' }]);
    expect(b).toEqual([{ type: 'toolsListChanged' }, { type: 'resourceUpdated', uri: 'file:///x' }]);
    expect(bus.size).toBe(1);
  });

  it('a listener that throws does not stop the others', () => {
    const bus = new InMemorySubscriptionBus();
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error('bad listener');
    });
    bus.subscribe((e) => seen.push(e.type));
    bus.publish({ type: 'promptsListChanged' });
    expect(seen).toEqual(['promptsListChanged']);
  });

  it('recognises well-formed events only', () => {
    expect(isSubscriptionEvent({ type: 'toolsListChanged' })).toBe(true);
    expect(isSubscriptionEvent({ type: 'resourceUpdated', uri: 'a' })).toBe(true);
    expect(isSubscriptionEvent({ type: 'resourceUpdated' })).toBe(false);
    expect(isSubscriptionEvent({ type: 'other' })).toBe(false);
    expect(isSubscriptionEvent(null)).toBe(false);
  });
});

describe('the server on its bus', () => {
  it('publishes registry changes (one per kind per tick) and resource updates', async () => {
    const bus = new InMemorySubscriptionBus();
    const server = new McpServer(
      { name: 't', version: '1' },
      { subscriptionBus: bus, capabilities: { subscribe: true } },
    );
    const seen: SubscriptionEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const one = server.addTool({ name: 'a' }, () => ({ content: [] }));
    server.addTool({ name: 'b' }, () => ({ content: [] }));
    server.addPrompt({ name: 'p' }, () => []);
    await Promise.resolve();
    one.remove();
    await Promise.resolve();
    server.notifyResourceUpdated('test://r');
    expect(seen).toEqual([
      { type: 'toolsListChanged' },
      { type: 'promptsListChanged' },
      { type: 'toolsListChanged' },
      { type: 'resourceUpdated', uri: 'test://r' },
    ]);
    await server.close();
    expect(bus.size).toBe(1); // a bus passed in is not closed by the server
  });
});
