// Splits an edition's pieces (blocks, embeds, paragraphs) into as few messages as a platform's limits allow,
// up to a maximum; what does not fit is counted, and the closing piece (the link to the page) always fits.

export interface ChunkOptions<P> {
  /** Pieces that open the first message (the edition's heading and intro). */
  head: P[];
  /** One piece per item, in order; each must fit in a message on its own. */
  items: P[];
  /** The closing piece, told how many items were left out. */
  tail: (omitted: number) => P;
  /** Whether these pieces fit in one message. */
  fits: (pieces: P[]) => boolean;
  maxMessages: number;
}

export function chunkMessages<P>(options: ChunkOptions<P>): P[][] {
  const { fits, maxMessages } = options;
  const messages: P[][] = [[...options.head]];
  let placed = 0;
  for (const item of options.items) {
    const current = messages[messages.length - 1] as P[];
    if (fits([...current, item])) current.push(item);
    else if (messages.length < maxMessages && fits([item])) messages.push([item]);
    else break;
    placed++;
  }
  let omitted = options.items.length - placed;
  for (;;) {
    const current = messages[messages.length - 1] as P[];
    const tail = options.tail(omitted);
    if (fits([...current, tail])) {
      current.push(tail);
      return messages;
    }
    if (messages.length < maxMessages) {
      messages.push([tail]);
      return messages;
    }
    // The last message is full: drop its last item to make capability for the link to the rest.
    if (current.length <= options.head.length && messages.length === 1) {
      throw new Error('the closing piece does not fit in a message on its own');
    }
    current.pop();
    if (current.length === 0) messages.pop();
    omitted++;
  }
}
