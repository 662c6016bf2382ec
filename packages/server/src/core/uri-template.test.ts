// Tests of URI templates: variables, matching, malformed templates.
import { describe, expect, it } from 'vitest';
import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  it.each([
    ['test://template/{id}/data', 'test://template/42/data', { id: '42' }],
    ['file:///{path}', 'file:///a%20b', { path: 'a b' }],
    ['file:///{+path}', 'file:///a/b/c.txt', { path: 'a/b/c.txt' }],
    ['x://h{/seg*}', 'x://h/a/b', { seg: ['a', 'b'] }],
    ['x://h{/a,b}', 'x://h/1/2', { a: '1', b: '2' }],
    ['x://h/doc{.ext}', 'x://h/doc.json', { ext: 'json' }],
    ['x://s{?q,lang}', 'x://s?q=cats&lang=en', { q: 'cats', lang: 'en' }],
    ['x://s{?q,lang}', 'x://s', {}],
    ['x://p{;id}', 'x://p;id=7', { id: '7' }],
    ['x://f{#frag}', 'x://f#sec-1', { frag: 'sec-1' }],
  ])('%s matches %s', (template, uri, vars) => {
    expect(new UriTemplate(template).match(uri)).toEqual(vars);
  });

  it.each([
    ['test://template/{id}/data', 'test://template/42/other'],
    ['test://template/{id}/data', 'test://template/4/2/data'],
    ['x://a.{b}', 'x://aXb'],
  ])('%s does not match %s', (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it('names its variables and rejects malformed templates', () => {
    expect(new UriTemplate('x://{a}/{b}{?c,d}').variableNames).toEqual(['a', 'b', 'c', 'd']);
    expect(() => new UriTemplate('x://{a')).toThrow(/Unclosed/);
    expect(() => new UriTemplate('x://{a b}')).toThrow(/Bad variable/);
  });
});
