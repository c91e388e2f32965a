SELECT enable_tenant_rls('crm_clients');
--> statement-breakpoint
SELECT enable_tenant_rls('imports');
--> statement-breakpoint
SELECT enable_tenant_rls('import_rejections');
