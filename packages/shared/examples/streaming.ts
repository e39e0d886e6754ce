import { acceptCheckpoint, advanceUIStream, startUIStream, UIStreamError } from '@lineup/shared';
import initial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import mutations from '@lineup/shared/fixtures/stream-mutations.json' with { type: 'json' };

// Producer (host): open generation 1 with a full snapshot, then advance it one validated mutation at a time.
let producer = startUIStream(initial, 'call_open_01', 1);
for (const mutation of mutations) producer = advanceUIStream(producer, mutation);
producer = advanceUIStream(producer, { type: 'complete' });
console.log(producer.status, producer.seq, producer.revision); // completed 5 3

// Receiver (client): every frame carries a full snapshot, so it may start from any frame (history, reconnect).
const receiver = acceptCheckpoint(null, producer.checkpoint);
console.log(receiver.document.root.id === producer.document.root.id); // true
console.log(acceptCheckpoint(receiver, producer.checkpoint) === receiver); // true: a duplicate frame changes nothing

// A completed generation takes no more updates.
try {
  advanceUIStream(producer, { type: 'remove', nodeId: 'summary' });
} catch (error) {
  if (error instanceof UIStreamError) console.log(error.issues[0]?.code); // 'invalid_value'
}
