SELECT enable_tenant_rls('network_cube');
--> statement-breakpoint
SELECT enable_tenant_rls('network_reach');
