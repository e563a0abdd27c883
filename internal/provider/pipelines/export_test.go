package pipelines

// The names the area's tests (package pipelines_test) use that the area does not export.

var EnvironmentReferencesForTest = environmentReferences

var PipelineScheduleKindForTest = pipelineScheduleKind

type PipelineScheduleModelForTest = pipelineScheduleModel

var SettingsAttrTypesForTest = settingsAttrTypes

var SignPipelineForTest = signPipeline

var UnclosedRegexForTest = unclosedRegex

var WarnFilterWithoutCodeForTest = warnFilterWithoutCode
