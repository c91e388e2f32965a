SELECT enable_tenant_rls('targeting_schemes');
--> statement-breakpoint
SELECT enable_tenant_rls('personas');
