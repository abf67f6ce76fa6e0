// A clip's AudioProcessingProblem is written by the server in English (it is text on the wire);
// the screens show it in the user's language when it is one of the studio's own media messages.
import { describe, expect, it } from 'vitest';
import { MediaErrorCode, MediaWarningCode } from './errors.ts';
import { mediaProblemText, processingProblemText } from './messages.ts';

describe('a processing problem in the reader’s language', () => {
  it('a warning the server wrote in English reads in German and in French', () => {
    const written = mediaProblemText({ code: MediaWarningCode.TruncatedFile }, 'en-US');
    expect(written).toBe('The file ends before the end its header announces; the audio that is there was kept');
    expect(processingProblemText(written, 'de-DE')).toBe('Die Datei endet vor dem im Header angegebenen Ende; das vorhandene Audio wurde übernommen');
    expect(processingProblemText(written, 'fr-FR')).toBe('Le fichier se termine avant la fin annoncée par son en-tête ; l’audio présent a été conservé');
    expect(processingProblemText(written, 'en-US')).toBe(written);
  });

  it('keeps the values a message names: the encoding, the status', () => {
    const encoding = mediaProblemText({ code: MediaErrorCode.UnsupportedEncoding, details: { encoding: 'AIFF-C (sowt)' } }, 'en-US');
    expect(processingProblemText(encoding, 'de-DE')).toBe('Diese Audiokodierung wird nicht unterstützt (AIFF-C (sowt))');
    const status = mediaProblemText({ code: MediaErrorCode.DownloadFailed, details: { status: 503 } }, 'en-US');
    expect(processingProblemText(status, 'de-DE')).toBe('Das Audio konnte nicht heruntergeladen werden (der Server antwortete 503)');
  });

  it('every media message the server can write comes back in each translated locale, none left in English', () => {
    for (const code of [...Object.values(MediaErrorCode), ...Object.values(MediaWarningCode)]) {
      const written = mediaProblemText({ code }, 'en-US');
      for (const locale of ['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR'] as const) {
        expect(processingProblemText(written, locale)).toBe(mediaProblemText({ code }, locale));
        expect(processingProblemText(written, locale)).not.toBe(written);
      }
    }
  });

  it('a text that is none of them (an earlier release’s, another tool’s) is shown as it is', () => {
    expect(processingProblemText('The audio is quieter than the loudness target', 'de-DE')).toBe('The audio is quieter than the loudness target');
    expect(processingProblemText('', 'de-DE')).toBe('');
    // Near a message but not it: no partial match.
    expect(processingProblemText('Note: The uploaded file is empty', 'de-DE')).toBe('Note: The uploaded file is empty');
  });
});
