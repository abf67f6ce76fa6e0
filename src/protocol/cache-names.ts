// Cache Storage names that the page, the service worker and the audio workers agree on: each side
// opens or deletes them by name (log-out deletes the user's), so they live where all three may
// import them and none of them imports another.
export const IMAGE_CACHE_NAME = 'images';
export const WAVEFORM_CACHE_NAME = 'castaway-waveforms-v1';
/** Audio files played on this device, kept so Play works offline (src/media/audio-keep.ts). */
export const AUDIO_CACHE_NAME = 'castaway-audio-v1';
