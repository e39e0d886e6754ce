import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** The question an install asks: what the app's page or views would reach, "Allow" or "Not now". */
export function grantQuestion(page: Page): Locator {
  return page.getByRole('dialog', { name: /asks for access$|请求访问权限$/ });
}

/**
 * Answers the open grant question. Its buttons take a press only a moment after it shows (as a person's would): the
 * click waits until they are enabled. The dialog is gone once answered.
 */
export async function answerGrantQuestion(page: Page, answer: 'allow' | 'not now' | 'escape'): Promise<void> {
  const dialog = grantQuestion(page);
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  if (answer === 'escape') await page.keyboard.press('Escape');
  else
    await dialog
      .getByRole('button', { name: answer === 'allow' ? /^(Allow|允许)$/ : /^(Not now|暂不)$/ })
      .click();
  await expect(dialog).toHaveCount(0);
}

/**
 * After an install whose status says it is done: answers the grant question when the install asked one (the
 * question is in the page with that status), "Not now" unless told otherwise. For tests about something else.
 */
export async function answerGrantQuestionIfAsked(
  page: Page,
  answer: 'allow' | 'not now' = 'not now',
): Promise<void> {
  if ((await page.locator('dialog.host__grant-question form').count()) > 0)
    await answerGrantQuestion(page, answer);
}
