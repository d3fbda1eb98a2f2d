import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api';
import { startRefusal } from './actions';

describe('startRefusal', () => {
  it('words each refusal of POST /api/voice/sessions', () => {
    expect(startRefusal(new ApiError(412, 'voice_no_key', 'No OpenAI key is set.'))).toMatchObject({ kind: 'no-key', message: expect.stringMatching(/^No OpenAI key is set\. Talk needs an OpenAI API key/) });
    expect(startRefusal(new ApiError(409, 'voice_busy', 'the desktop window is already talking on this project'))).toEqual({ kind: 'busy', message: 'the desktop window is already talking on this project' });
    expect(startRefusal(new ApiError(502, 'voice_key_refused', 'OpenAI refused the key'))).toEqual({ kind: 'error', message: 'Talk did not start: OpenAI refused the key' });
    expect(startRefusal(new ApiError(0, 'network', 'down'))).toEqual({ kind: 'error', message: 'Talk did not start: the FixThis app is not reachable.' });
  });
});
