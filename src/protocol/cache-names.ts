// Cache Storage names shared by the service worker and the page (log-out deletes the user's).
export const IMAGE_CACHE_NAME = 'images';
