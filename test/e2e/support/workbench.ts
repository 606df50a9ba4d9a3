import type { FrameLocator, Locator, Page } from 'playwright-core';

/**
 * Ways to drive the VS Code workbench the way a person does: keyboard shortcuts, the quick
 * pick, the Problems panel. Selectors are the workbench's own classes and ARIA labels.
 */
export class Workbench {
  constructor(readonly page: Page) {}

  async waitUntilReady(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 90_000 });
  }

  /** Opens a workspace file through Quick Open. */
  async openFile(relativePath: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(relativePath);
    const name = relativePath.split('/').pop()!;
    // The list keeps the previous query's rows until the new ones arrive: wait for the focused one to match.
    await this.page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: name })
      .waitFor({ timeout: 15_000 });
    await this.page.keyboard.press('Enter');
    await this.page
      .locator('.editor-group-container.active .tabs-container .tab.active', { hasText: name })
      .waitFor({ timeout: 15_000 });
  }

  /** Moves the cursor of the active editor to a 1-based line and column. */
  async goToPosition(line: number, column: number): Promise<void> {
    await this.page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    // The status bar shows where the cursor landed.
    await this.page
      .locator('.statusbar-item', { hasText: `Ln ${line}, Col ${column}` })
      .first()
      .waitFor({ timeout: 15_000 });
  }

  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    // A key pressed while focus moves between the workbench and a webview can be lost, and a
    // webview that takes focus back closes the palette: ask again, as a person would.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(`>${title}`, { timeout: 5_000 });
        await this.page
          .locator('.quick-input-list .monaco-list-row.focused', { hasText: title })
          .waitFor({ timeout: 15_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.keyboard.press('Escape');
        await this.page.waitForTimeout(500);
      }
    }
    await this.page.keyboard.press('Enter');
  }

  /** Shows the hover at the cursor (Ctrl+K Ctrl+I), until `content` is in it. */
  async showHover(content: Locator): Promise<void> {
    await this.pressUntilShown(['Control+K', 'Control+I'], content);
  }

  /**
   * Presses the keys until `shown` appears. What they open is computed asynchronously; a request
   * made while the editor was still taking focus can come back empty, so ask again as a person would.
   */
  private async pressUntilShown(keys: string[], shown: Locator): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      for (const key of keys) await this.page.keyboard.press(key);
      try {
        await shown.waitFor({ timeout: 5_000 });
        return;
      } catch (error) {
        if (attempt === 4) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /** Picks a colour theme by name in the theme picker (Ctrl+K Ctrl+T). */
  async setColorTheme(name: string): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+T');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(name);
    await this.page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: name })
      .waitFor({ timeout: 15_000 });
    await this.page.keyboard.press('Enter');
  }

  /** Opens the quick-fix menu at the cursor and picks the action with this title. */
  async applyQuickFix(title: string): Promise<void> {
    await this.pressUntilShown(
      ['Control+.'],
      this.page.locator('.action-widget .monaco-list-row', { hasText: title }).first(),
    );
    // The menu takes keys, as it does for a person using the keyboard; clicks land on its pointer guard.
    const focused = this.page.locator('.action-widget .monaco-list-row.focused');
    for (let step = 0; step < 30 && (await focused.getAttribute('aria-label').catch(() => null)) !== title; step += 1) {
      await this.page.keyboard.press('ArrowDown');
    }
    if ((await focused.getAttribute('aria-label')) !== title) throw new Error(`No quick fix titled "${title}"`);
    await this.page.keyboard.press('Enter');
  }

  /** The rows of the Problems panel as the user sees them: file, then rule, line and column. */
  async problems(): Promise<
    { file: string; folder: string; rule: string; line: number; column: number; text: string }[]
  > {
    const rows = await this.page.locator('.markers-panel .monaco-list-row').evaluateAll((elements) =>
      elements.map((element) => ({
        label: element.getAttribute('aria-label') ?? '',
        text: (element as HTMLElement).innerText,
      })),
    );
    const found: { file: string; folder: string; rule: string; line: number; column: number; text: string }[] = [];
    let file = '';
    let folder = '';
    for (const row of rows) {
      const resource = /problems in file (.+) of folder (.+)$/.exec(row.label);
      if (resource) {
        [file, folder] = [resource[1], resource[2]];
        continue;
      }
      // A marker row reads: message, source, code, position, one per line.
      const code = /^idempotency\n([a-z0-9-]+)$/m.exec(row.text);
      const position = /\[Ln (\d+), Col (\d+)\]/.exec(row.text);
      if (code && position) {
        found.push({
          file,
          folder,
          rule: code[1],
          line: Number(position[1]),
          column: Number(position[2]),
          text: row.text,
        });
      }
    }
    return found;
  }

  /** The related-information rows of the Problems panel whose text includes `text`, with their line and column. */
  async relatedRows(text: string): Promise<{ line: number; column: number; text: string }[]> {
    const rows = await this.page
      .locator('.markers-panel .monaco-list-row')
      .evaluateAll((elements) => elements.map((element) => (element as HTMLElement).innerText));
    return rows.flatMap((row) => {
      const position = /\[Ln (\d+), Col (\d+)\]/.exec(row);
      return row.includes(text) && position
        ? [{ line: Number(position[1]), column: Number(position[2]), text: row }]
        : [];
    });
  }

  /** The text of the language status hover (the `{}` beside the language mode), read by pointing at it. */
  async languageStatus(): Promise<string> {
    await this.page.mouse.move(0, 0);
    await this.page
      .locator('.monaco-hover', { hasText: 'Idempotency:' })
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => {});
    await this.page.locator('[id="status.languageStatus"]').hover();
    const hover = this.page.locator('.monaco-hover', { hasText: 'Idempotency:' }).first();
    await hover.waitFor({ timeout: 10_000 });
    return hover.innerText();
  }

  /** The text of the notification toasts on screen. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  }

  async showProblems(): Promise<void> {
    await this.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    await this.page.locator('.markers-panel').waitFor();
  }

  /** The lesson panel's page, two frames deep inside the webview element. */
  lessonFrame(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }
}
