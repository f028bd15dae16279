-- A tool result looks up the PreToolUse of the same call (by tool_use_id) to tell whether gobby
-- allowed it before it ran (daemon/hook-service.ts, toolCallSeen). Without this index that
-- lookup read every audit row of the session, on every PostToolUse: a cost that grew with the
-- session's length on the hot path of each tool call.
CREATE INDEX audit_by_tool_use ON audit_log(session_id, tool_use_id) WHERE tool_use_id IS NOT NULL;
