export type WorkflowStepId = 'connect' | 'preview' | 'annotate' | 'handoff';
export type StepState = 'complete' | 'active' | 'upcoming';

export interface WorkflowStep {
  id: WorkflowStepId;
  label: string;
  state: StepState;
}

export interface WorkflowInput {
  deviceReady: boolean;
  previewVisible: boolean;
  annotations: number;
  handedOff: boolean;
}

const LABELS: Record<WorkflowStepId, string> = {
  connect: 'Connect',
  preview: 'Preview',
  annotate: 'Annotate',
  handoff: 'Hand off',
};

/** Steps in order; the first incomplete one is active, later ones upcoming. */
export function workflowSteps(input: WorkflowInput): WorkflowStep[] {
  const done: Record<WorkflowStepId, boolean> = {
    connect: input.deviceReady,
    preview: input.deviceReady && input.previewVisible,
    annotate: input.annotations > 0,
    handoff: input.handedOff,
  };
  const ids: WorkflowStepId[] = ['connect', 'preview', 'annotate', 'handoff'];
  let activeSeen = false;
  return ids.map((id) => {
    let state: StepState;
    if (done[id] && !activeSeen) state = 'complete';
    else if (!activeSeen) {
      state = 'active';
      activeSeen = true;
    } else state = done[id] ? 'complete' : 'upcoming';
    return { id, label: LABELS[id], state };
  });
}
