/*
 * ffmpeg and ffprobe in one program. Each of FFmpeg's two main units
 * defines program_name, program_birth_year and show_help_default, which
 * its shared code (cmdutils.c) reads; the build renames them per tool
 * (ffmpeg_program_name, ...), and these are the shared names, set for the
 * tool that runs before its main starts.
 *
 * Our own code (MIT), linked into the GPL program.
 */
#include <string.h>

extern const char ffmpeg_program_name[], ffprobe_program_name[];
extern const int ffmpeg_program_birth_year, ffprobe_program_birth_year;
void ffmpeg_show_help_default(const char *opt, const char *arg);
void ffprobe_show_help_default(const char *opt, const char *arg);

/* cmdutils.h declares these `const`; they are written once, here, before
 * any reader runs. */
char program_name[16];
int program_birth_year;

static int probe;

/* Selects the tool: 1 for ffprobe, 0 for ffmpeg. */
void computer_ffmpeg_select_tool(int is_probe)
{
	probe = is_probe;
	strcpy(program_name, probe ? ffprobe_program_name : ffmpeg_program_name);
	program_birth_year = probe ? ffprobe_program_birth_year : ffmpeg_program_birth_year;
}

void show_help_default(const char *opt, const char *arg)
{
	if (probe)
		ffprobe_show_help_default(opt, arg);
	else
		ffmpeg_show_help_default(opt, arg);
}
