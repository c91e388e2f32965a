import { drive, type UsersMessage, type Window } from './users.ts';

/**
 * The scale bench's users in a process of their own (scale.ts forks it for each window): the window's
 * settings come as the first message; `measuring` and `sample` go back as the window opens and every
 * second of it, then the figures; the process ends when the bench lets go of it (disconnects), once
 * its CPU time is read.
 */
// A listener of `disconnect` keeps the channel open (and the process alive) once the window's message
// is read: without listeners Node lets the channel go, and the process ended before its CPU was read.
process.on('disconnect', () => process.exit(0));
process.once('message', async (window: Window) => {
  const tell = (message: UsersMessage) => new Promise<void>((resolve) => process.send?.(message, () => resolve()));
  const figures = await drive(
    window,
    () => void tell({ type: 'measuring' }),
    () => void tell({ type: 'sample' }),
  );
  await tell({ type: 'figures', figures });
});
