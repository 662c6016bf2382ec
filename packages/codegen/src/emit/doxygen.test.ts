// Tests of rendering model docs as Doxygen comments.
import { describe, expect, it } from 'vitest';
import { doxygen } from './doxygen.js';

describe('doxygen', () => {
  it('renders a summary-only doc on one line', () => {
    expect(doxygen({ summary: 'Short.', body: [], params: [], sections: [] }, '  ')).toEqual([
      '  /** Short. */',
    ]);
  });

  it('renders nothing for an empty doc', () => {
    expect(doxygen({ summary: '', body: [], params: [], sections: [] })).toEqual([]);
  });

  it('renders brief, body, params, return and titled sections', () => {
    const lines = doxygen({
      summary: 'Does it.',
      body: ['More\ntext.'],
      params: [{ name: 'x', text: 'The x.' }],
      returns: 'Zero.',
      sections: [{ tag: 'threading', title: 'Threading', text: 'Any thread.' }],
    });
    expect(lines).toEqual([
      '/**',
      ' * @brief Does it.',
      ' *',
      ' * More',
      ' * text.',
      ' *',
      ' * @param x The x.',
      ' * @return Zero.',
      ' *',
      ' * @par Threading',
      ' * Any thread.',
      ' */',
    ]);
  });
});
