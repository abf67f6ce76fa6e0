// A clip's transcript (issue 34), as a producer uses it: import a WebVTT file on the clip screen,
// correct a word in a cue, leave with the correction unsaved (the section 4 prompt names the
// transcript), save, and find it kept after a reload. Works on a new clip of the demo
// organization's SECOND program, as new-clip.spec.ts does: the first program's clip list is shared
// by the other specs by position.
import { expect, test, type Page } from '@playwright/test';
import { logIn } from './support.ts';

const VTT = `WEBVTT

00:00:00.500 --> 00:00:03.000
<v Ana>Good morning and welcome to the briefing.

00:00:03.000 --> 00:00:06.250
<v Ben>Today the harbour pelicans are bak.
`;

async function newClipInSecondProgram(page: Page, title: string): Promise<void> {
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').nth(1).click();
  await page.getByRole('button', { name: 'New clip' }).click();
  const dialog = page.getByRole('dialog', { name: 'New clip' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Create clip' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

test('a producer imports a WebVTT transcript, corrects a word, saves, and finds it kept after a reload', async ({ page }) => {
  await logIn(page);
  await newClipInSecondProgram(page, `Transcribed ${Date.now()}`);
  const section = page.getByRole('region', { name: 'Transcript' });
  await expect(section.getByText('This clip has no transcript yet.')).toBeVisible({ timeout: 20_000 });

  await section.getByLabel('Import a transcript file').setInputFiles({ name: 'briefing.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT) });
  const second = section.getByRole('listitem', { name: 'Cue 2' });
  await expect(second.getByLabel('Speaker')).toHaveValue('Ben');
  await expect(second.getByLabel('Start')).toHaveValue('00:00:03.000');
  await second.getByLabel('Text').fill('Today the harbour pelicans are back.');

  // Unsaved: leaving asks first, in the transcript's words; closing the prompt stays.
  await page.getByRole('link', { name: 'Back' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(prompt.getByText('This transcript has unsaved changes which will be lost if you continue.')).toBeVisible();
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toBeHidden();

  await section.getByRole('button', { name: 'Save transcript' }).click();
  await expect(page.getByText('Transcript saved')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Save transcript' })).toBeDisabled();

  await page.reload();
  const kept = page.getByRole('region', { name: 'Transcript' }).getByRole('listitem', { name: 'Cue 2' });
  await expect(kept.getByLabel('Text')).toHaveValue('Today the harbour pelicans are back.', { timeout: 20_000 });
  await expect(kept.getByLabel('Speaker')).toHaveValue('Ben');
});
