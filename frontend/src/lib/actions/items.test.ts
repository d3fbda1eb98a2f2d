import { describe, expect, it } from 'vitest';
import { answeredAlready } from './items';

describe('answeredAlready', () => {
  it('says the typed answer was not sent and quotes the one that won', () => {
    expect(answeredAlready(3, 'The brand blue')).toBe('Your answer was not sent: the question on #3 was already answered (by voice or in another window): “The brand blue”.');
    const long = 'x'.repeat(200);
    expect(answeredAlready(1, long)).toContain(`“${'x'.repeat(119)}…”`);
  });
});
