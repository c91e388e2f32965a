import { Center } from '@mantine/core';
import { WarmPathDrawing } from '../../network/components/WarmPathDrawing.tsx';
import type { WarmPath } from '../../network/pictures.ts';

const EXAMPLE: WarmPath = {
  people: [
    { name: 'You', role: 'Sales, your company', kind: 'you' },
    { name: 'Maya', role: 'Your colleague', kind: 'connector' },
    { name: 'Tom', role: 'CFO at your target', kind: 'prospect' },
  ],
  links: [
    { strength: 'Asks for an intro', band: null, channels: [] },
    { strength: 'High', band: 'High', channels: ['12 meetings this year'] },
  ],
};

/**
 * The product in one picture: you, the colleague who knows the buyer, the buyer, and how well each
 * link is known. The same drawing as the network page's warm paths, with an example path.
 */
export function WarmPathPicture() {
  return (
    <Center>
      <WarmPathDrawing
        path={EXAMPLE}
        label="A warm path: you ask Maya, your colleague, who has met Tom, the CFO at your target account, twelve times this year, to introduce you."
      />
    </Center>
  );
}
