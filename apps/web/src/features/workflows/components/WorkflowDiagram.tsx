import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { SIGNAL_LABELS, type TWorkflow } from '@warmpath/shared';
import { Background, type Edge, type Node, type NodeProps, ReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { ReactNode } from 'react';
import { ENGAGEMENT_LABELS, filterLines } from '../labels.ts';

/** Spec section 2: cards are 280 px wide when the flow has more than 3 columns, else 320 px. */
export const cardWidth = (columns: number) => (columns > 3 ? 280 : 320);
const GAP = 80;

type StepData = { title: string; body: ReactNode; width: number };
type StepNode = Node<StepData, 'step'>;

function StepCard({ data }: NodeProps<StepNode>) {
  return (
    <Card withBorder radius="md" padding="md" w={data.width} className="nodrag">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {data.title}
        </Title>
        {data.body}
      </Stack>
    </Card>
  );
}

const nodeTypes = { step: StepCard };

function Chips({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Group gap={6}>
      {items.map((item) => (
        <Badge key={item} variant="light" radius="sm" tt="none">
          {item}
        </Badge>
      ))}
    </Group>
  );
}

function FilterBody({ workflow }: { workflow: TWorkflow }) {
  const { contact, company } = filterLines(workflow.filters);
  if (contact.length === 0 && company.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No filters configured
      </Text>
    );
  return (
    <Stack gap={6}>
      {contact.length > 0 ? (
        <div>
          <Text size="xs" fw={600}>
            Contact levels
          </Text>
          {contact.map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
        </div>
      ) : null}
      {company.length > 0 ? (
        <div>
          <Text size="xs" fw={600}>
            Company level
          </Text>
          <Text size="sm">{company.join(' and ')}</Text>
        </div>
      ) : null}
    </Stack>
  );
}

function ActionsBody({ workflow }: { workflow: TWorkflow }) {
  const labels = [...new Set(workflow.engagements.map((engagement) => ENGAGEMENT_LABELS[engagement]))];
  return (
    <Stack gap="xs">
      {labels.length === 0 ? (
        <Text size="sm" c="dimmed">
          No actions configured
        </Text>
      ) : (
        labels.map((label) => (
          <Text key={label} size="sm">
            {label}
          </Text>
        ))
      )}
      {/* The spec's pill: shown, not offered (the provider writes a workflow's actions). */}
      <Badge variant="outline" color="gray" radius="xl" tt="none" aria-disabled="true">
        Add an Action
      </Badge>
    </Stack>
  );
}

/** Spec section 2, Workflow detail: Signals, then Filter, then Actions, as a flow. */
export function WorkflowDiagram({ workflow }: { workflow: TWorkflow }) {
  const steps: { id: string; title: string; body: ReactNode }[] = [
    {
      id: 'signals',
      title: 'Signals',
      body: <Chips items={workflow.signals.map((type) => SIGNAL_LABELS[type])} empty="No signals configured" />,
    },
    { id: 'filter', title: 'Filter', body: <FilterBody workflow={workflow} /> },
    { id: 'actions', title: 'Actions', body: <ActionsBody workflow={workflow} /> },
  ];
  const width = cardWidth(steps.length);
  const nodes: StepNode[] = steps.map((step, column) => ({
    id: step.id,
    type: 'step',
    position: { x: column * (width + GAP), y: 0 },
    data: { title: step.title, body: step.body, width },
    draggable: false,
    selectable: false,
  }));
  const edges: Edge[] = steps.slice(1).map((step, index) => ({
    id: `${steps[index]?.id}-${step.id}`,
    source: steps[index]?.id ?? '',
    target: step.id,
    animated: workflow.active,
  }));
  return (
    <figure style={{ height: 320, margin: 0 }} aria-label={`How ${workflow.name} works`}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        panOnDrag={false}
        zoomOnScroll={false}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={24} />
      </ReactFlow>
    </figure>
  );
}
