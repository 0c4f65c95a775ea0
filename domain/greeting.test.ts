import { describe, it, expect } from 'vitest';
import { greetingFor } from './greeting';

describe('greetingFor', () => {
  it.each([
    [0, 'Good morning'],
    [11, 'Good morning'],
    [12, 'Good afternoon'],
    [17, 'Good afternoon'],
    [18, 'Good evening'],
    [23, 'Good evening'],
  ])('hour %i gives %s', (hour, text) => {
    expect(greetingFor(hour)).toBe(text);
  });

  it('prefers a custom greeting, trimmed', () => {
    expect(greetingFor(9, '  Howdy  ')).toBe('Howdy');
  });

  it('ignores a blank or missing custom greeting', () => {
    expect(greetingFor(20, '   ')).toBe('Good evening');
    expect(greetingFor(20, null)).toBe('Good evening');
    expect(greetingFor(20, '')).toBe('Good evening');
  });
});
