import { describe, expect, it } from 'vitest';

import plugin, { ruleNames } from '../../eslint-plugin/src/index.js';

/**
 * A finding's message is read where there is little room: a Problems panel row, a status line, a
 * CI log. Each leads with the fact in a few fixed words ("Effect key from the delivery, not the
 * operation: …"), then the detail.
 */
describe('rule messages', () => {
  for (const rule of ruleNames) {
    const { messages, hasSuggestions } = plugin.rules[rule].meta as {
      messages: Record<string, string>;
      hasSuggestions?: boolean;
    };
    it(`${rule}: every message leads with the fact, in words of its own, before the detail`, () => {
      const reported = Object.entries(messages).filter(([id]) => !(hasSuggestions && /^add/.test(id)));
      expect(reported.length).toBeGreaterThan(0);
      for (const [id, message] of reported) {
        const lead = message.slice(0, message.indexOf(': '));
        expect(message.indexOf(': '), `${rule}/${id}: "${message}"`).toBeGreaterThan(0);
        expect(lead, `${rule}/${id}`).not.toContain('{{');
        expect(lead.length, `${rule}/${id}: "${lead}"`).toBeLessThanOrEqual(50);
        expect(lead, `${rule}/${id}`).toMatch(/^[A-Z]/);
      }
    });
  }
});
