import {
  findIntelligentUITool,
  formatIssuesForModel,
  intelligentUIPromptSection,
} from '@lineup/shared/agent';

// Offer the tools to a model: name, description and a JSON Schema of the parameters.
const tool = findIntelligentUITool('intelligent_ui');
console.log(tool?.name, Object.keys(tool?.parameters.properties ?? {})); // intelligent_ui [ 'document' ]

// The system-prompt section for the tools in scope (components, operators and limits from the catalog).
const section = intelligentUIPromptSection({ tools: ['intelligent_ui'] });
console.log(section.includes('NumberInput')); // true

// Validate a model's call with the real validators; show it at most 10 located issues on failure.
try {
  tool?.parseArguments({ document: '{"version":"1.0"}' });
} catch (error) {
  console.log(formatIssuesForModel(error).split('\n')[1]); // '- document: invalid_type — Pass document as a JSON object, not as a JSON string.'
}
