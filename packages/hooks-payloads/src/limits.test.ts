import { describe, it, expect } from 'vitest';
import { LIMITS, ENV_TRUNCATION_MARKER, TEXT_TRUNCATION_MARKER, PREVIEW_ELLIPSIS, RECEIPT_PREVIEW_MARKER } from './limits.js';

describe('LIMITS', () => {
  it('carries the contract constants (reference §0)', () => {
    expect(LIMITS.defaultTimeoutSecs).toBe(30);
    expect(LIMITS.maxTimeoutSecs).toBe(2_147_483);
    expect([LIMITS.observerQueueCapacity, LIMITS.observerWorkers]).toEqual([32, 2]);
    expect([LIMITS.backgroundQueueCapacity, LIMITS.backgroundWorkers]).toEqual([32, 2]);
    expect(LIMITS.reapWindowMs).toBe(2_000);
    expect(LIMITS.captureMaxBytes).toBe(65_536);
    expect(LIMITS.steeringFieldMaxChars).toBe(2_000);
    expect(LIMITS.contextMaxChars).toBe(8_000);
    expect(LIMITS.updatedInputMaxBytes).toBe(32_768);
    expect(LIMITS.messageSubmitDocumentMaxBytes).toBe(32_768);
    expect(LIMITS.messageSubmitMetadataCaps).toEqual([4_096, 1_024, 256]);
    expect(LIMITS.messageSubmitReplacementMaxChars).toBe(32_000);
    expect(LIMITS.envMessageMaxBytes).toBe(5_000);
    expect(LIMITS.envErrorMaxBytes).toBe(5_000);
    expect(LIMITS.envToolArgsMaxBytes).toBe(10_000);
    expect(LIMITS.envToolResultMaxBytes).toBe(10_000);
    expect(LIMITS.envMetadataMaxBytes).toBe(4_096);
    expect(LIMITS.subagentPreviewMaxBytes).toBe(2_048);
    expect(LIMITS.turnErrorMaxChars).toBe(2_000);
    expect(LIMITS.denialReasonMaxChars).toBe(240);
    expect(LIMITS.labelMaxChars).toBe(64);
    expect(LIMITS.noVerdictDetailMaxChars).toBe(160);
    expect(LIMITS.commandPreviewMaxChars).toBe(60);
    expect(LIMITS.shellEnvMaxValueBytes).toBe(32_768);
    expect(LIMITS.shellEnvMaxOutputBytes).toBe(262_144);
    expect(LIMITS.projectHooksFileMaxBytes).toBe(1_048_576);
    expect(LIMITS.receiptMaxBytes).toBe(32_768);
    expect(LIMITS.receiptFieldMaxBytes).toBe(8_192);
    expect(LIMITS.toolCallAfterDocumentMaxBytes).toBe(65_536);
    expect(LIMITS.toolCallAfterIdMaxBytes).toBe(1_024);
    expect(LIMITS.auditLogRotateBytes).toBe(16 * 1024 * 1024);
  });

  it('keeps the four truncation markers distinct and exact', () => {
    expect(ENV_TRUNCATION_MARKER).toBe('...[truncated]');
    expect(ENV_TRUNCATION_MARKER).toHaveLength(14);
    expect(TEXT_TRUNCATION_MARKER).toBe('\u2026[truncated]');
    expect([...TEXT_TRUNCATION_MARKER]).toHaveLength(12);
    expect(PREVIEW_ELLIPSIS).toBe('\u2026');
    expect(RECEIPT_PREVIEW_MARKER).toBe('[receipt preview truncated]');
    expect(new Set([ENV_TRUNCATION_MARKER, TEXT_TRUNCATION_MARKER, PREVIEW_ELLIPSIS, RECEIPT_PREVIEW_MARKER]).size).toBe(4);
  });
});
