// The worker thread that reads feeds (_feed-threads.ts starts it): feed text is untrusted and large, so it is
// parsed here, never on the thread that answers requests and writes the store.
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../core/errors.js';
import { type FeedReadRequest, readFeed } from './_feed-read.js';

parentPort?.postMessage({ ready: true });
parentPort?.on('message', (message: { id: number; request: FeedReadRequest }) => {
  try {
    parentPort?.postMessage({ id: message.id, capture: readFeed(message.request) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: errorMessage(error) });
  }
});
