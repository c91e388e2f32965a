ALTER TABLE "job_changes" ADD COLUMN "status" text DEFAULT 'detected' NOT NULL;--> statement-breakpoint
ALTER TABLE "job_changes" ADD COLUMN "decided_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "job_changes" ADD COLUMN "decided_at" timestamp with time zone;