SELECT enable_tenant_rls('workflows');
--> statement-breakpoint
SELECT enable_tenant_rls('workflow_runs');
