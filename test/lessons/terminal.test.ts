import { describe, expect, it } from 'vitest';

import { Terminal } from '../../lessons/src/node/terminal.js';

describe('the terminal the CLI writes to', () => {
  it('uses colour only on a terminal, and never with NO_COLOR set', () => {
    expect(new Terminal({ isTTY: true, columns: 80 }, {}).colour).toBe(true);
    expect(new Terminal({ isTTY: true, columns: 80 }, {}).style('bold', 'x')).toBe('\u001b[1mx\u001b[22m');
    expect(new Terminal({ isTTY: true, columns: 80 }, { NO_COLOR: '1' }).colour).toBe(false);
    expect(new Terminal({ isTTY: false }, {}).colour).toBe(false);
    expect(new Terminal({ isTTY: false }, {}).style('bold', 'x')).toBe('x');
  });

  it("wraps at the terminal's width, or COLUMNS when piped, or not at all", () => {
    expect(new Terminal({ isTTY: true, columns: 30 }, { COLUMNS: '100' }).width).toBe(30);
    expect(new Terminal({ isTTY: false }, { COLUMNS: '100' }).width).toBe(100);
    expect(new Terminal({ isTTY: false }, {}).width).toBeNull();
    const text = 'A consumer records each message under an identity that survives redelivery.';
    expect(new Terminal({ isTTY: true, columns: 30 }, {}).prose(text, '  ')).toBe(
      '  A consumer records each\n  message under an identity\n  that survives redelivery.',
    );
    expect(new Terminal({ isTTY: false }, {}).prose(text)).toBe(text);
    expect(new Terminal({ isTTY: true, columns: 30 }, {}).labelled('b: ', text)).toBe(
      'b: A consumer records each\n   message under an identity\n   that survives redelivery.',
    );
  });
});
