// What the counting job reads of a user agent (sync-server/analytics/counting-agents.ts): real
// user agents of podcast apps, browsers, bots and podcast crawlers, through the real isbot and
// ua-parser-js.
import { describe, expect, it } from 'vitest';
import { agentFacts } from '../../sync-server/analytics/counting-agents.ts';

describe('agentFacts', () => {
  it.each([
    ['AppleCoreMedia/1.0.0.20E252 (iPhone; U; CPU OS 16_4_1 like Mac OS X; en_us)', { excluded: false, app: 'Apple Podcasts', device: 'Mobile', os: 'iOS' }],
    ['Podcasts/1650.20 CFNetwork/1404.0.5 Darwin/22.3.0', { excluded: false, app: 'Apple Podcasts', device: 'Mobile', os: 'iOS' }],
    ['Spotify/8.8.12 Android/33 (SM-G991B)', { excluded: false, app: 'Spotify', device: 'Mobile', os: 'Android' }],
    // isbot matches "+http://": a known podcast app is a listener all the same.
    ['Overcast/3.0 (+http://overcast.fm/; iOS podcast app)', { excluded: false, app: 'Overcast', device: 'Mobile', os: 'iOS' }],
    ['AlexaMediaPlayer/2.1.4676.0 (Linux;Android 5.1.1) ExoPlayerLib/1.5.9', { excluded: false, app: 'Alexa', device: 'Smart speaker', os: 'Android' }],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', { excluded: false, app: 'Web browser', device: 'Desktop', os: 'Windows' }],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', { excluded: false, app: 'Web browser', device: 'Tablet', os: 'iOS' }],
    [null, { excluded: false, app: 'Unknown', device: 'Unknown', os: 'Unknown' }],
  ])('%s is a listener', (ua, facts) => {
    expect(agentFacts(ua)).toEqual(facts);
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'curl/8.5.0',
    'Spotify/1.0',
    'Overcast/1.0 Podcast Sync (+http://overcast.fm/)',
    'Podbean/FeedUpdate 1.1',
    'iTMS',
    // The Apple Watch pre-download (IAB v2.1 onwards).
    'atc/1.0 watchOS/9.4 model/Watch6,1 hwp/t8301 build/20T248 (6; dt:251) AMS/1',
  ])('%s is not counted', (ua) => {
    expect(agentFacts(ua).excluded).toBe(true);
  });
});
