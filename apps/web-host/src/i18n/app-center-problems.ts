/**
 * Why an app center action did not happen (app-center/problems.ts), in words: each language words every problem
 * itself; English quotes the runtime's own sentence where it has one (it names the file and both digests).
 */
import type { McpServerErrorCode } from '@lineup/runtime/mcp';
import type { AppCenterProblem } from '../app-center/problems.ts';
import type { Bilingual } from './language.ts';

/** What each refusal of an MCP server means, before the runtime's own sentence (which names the tool or view). */
const MCP_PROBLEM_EN: Readonly<Record<McpServerErrorCode, string>> = {
  invalid_url: 'This is not a URL an MCP server may have:',
  unreachable: 'The server could not be reached; nothing was kept.',
  off_spec: 'The server answered off the MCP specification; nothing was kept.',
  too_many: 'The server lists more than LineUp keeps; nothing was kept.',
  view_refused: 'One of its views cannot be kept; nothing was kept.',
  schema_unusable: 'One of its tool schemas cannot be used; nothing was kept.',
  scope_taken: 'Another app uses this app scope: add it under another one.',
  unauthorized:
    'The server asks who you are: give the access token its owner gave you (or a valid one); nothing was kept.',
};

const MCP_PROBLEM_ZH: Readonly<Record<McpServerErrorCode, string>> = {
  invalid_url: '这不是 MCP 服务器可用的 URL：',
  unreachable: '无法连接该服务器；没有保存任何内容。',
  off_spec: '该服务器的应答不符合 MCP 规范；没有保存任何内容。',
  too_many: '该服务器列出的内容超过 LineUp 的上限；没有保存任何内容。',
  view_refused: '它的某个视图无法保存；没有保存任何内容。',
  schema_unusable: '它的某个工具模式无法使用；没有保存任何内容。',
  scope_taken: '另一个应用已使用此应用作用域：请换一个再添加。',
  unauthorized:
    '该服务器要求验证你的身份：请填写其所有者给你的访问令牌（或一个有效的令牌）；没有保存任何内容。',
};

function problemEn(problem: AppCenterProblem): string {
  switch (problem.kind) {
    case 'integrity':
      return problem.message;
    case 'protocol':
      return `The manifest is not valid (${problem.issues.length === 1 ? '1 problem' : `${problem.issues.length} problems`}):`;
    case 'invalid_url':
      return 'Type the URL of a bundle folder on this site, such as /apps/notes/.';
    case 'other_origin':
      return `Only bundles on this site (${problem.origin}) can be installed by URL: this host has no bundle policy to trust another site. Nothing was fetched.`;
    case 'dev_not_local':
      return 'A dev bundle must be on this machine (localhost, 127.0.0.1 or [::1]). Nothing was fetched.';
    case 'dev_unavailable':
      return problem.status === 0
        ? `The dev server cannot be reached: ${problem.message} Is \`npm run dev\` running?`
        : `The dev server answered ${problem.status}: ${problem.message}`;
    case 'dev_build_failed':
      return problem.running === undefined
        ? 'The build failed, so nothing is installed yet; the dev server says (fix it and save):'
        : `The new build failed; ${problem.running.name} ${problem.running.version} from the last good build still runs and answers calls. The dev server says (fix it and save):`;
    case 'no_manifest':
      return `The folder “${problem.folder}” has no lineup.manifest.json at its top: pick the folder that holds it.`;
    case 'nothing_picked':
      return 'No file was picked.';
    case 'no_bundle_url':
      return 'This app was installed from a picked folder, so there is no URL to check: pick the newer folder under “Install a MiniApp”.';
    case 'mcp':
      return `${MCP_PROBLEM_EN[problem.code]} ${problem.message}`;
    case 'mcp_unavailable':
      return 'This host cannot reach MCP servers.';
    case 'bad_token':
      return `The access token was not kept: ${problem.reason} Nothing was added.`;
    case 'sign_in_failed':
      return problem.message;
    case 'failed':
      return `It failed: ${problem.message}`;
  }
}

function problemZh(problem: AppCenterProblem): string {
  switch (problem.kind) {
    case 'integrity':
      return integrityZh(problem);
    case 'protocol':
      return `清单无效（${problem.issues.length} 个问题）：`;
    case 'invalid_url':
      return '请输入本站上一个包文件夹的 URL，例如 /apps/notes/。';
    case 'other_origin':
      return `只能通过 URL 安装本站（${problem.origin}）的包：本宿主没有可信任其他站点的包策略。没有获取任何内容。`;
    case 'dev_not_local':
      return '开发包必须在本机上（localhost、127.0.0.1 或 [::1]）。没有获取任何内容。';
    case 'dev_unavailable':
      return problem.status === 0
        ? `无法连接开发服务器：${problem.message} \`npm run dev\` 是否在运行？`
        : `开发服务器返回 ${problem.status}：${problem.message}`;
    case 'dev_build_failed':
      return problem.running === undefined
        ? '构建失败，尚未安装任何内容。开发服务器的消息如下（修正后保存即可）：'
        : `新构建失败；上一次成功构建的 ${problem.running.name} ${problem.running.version} 仍在运行并响应调用。开发服务器的消息如下（修正后保存即可）：`;
    case 'no_manifest':
      return `文件夹“${problem.folder}”的顶层没有 lineup.manifest.json：请选择存放它的文件夹。`;
    case 'nothing_picked':
      return '没有选择任何文件。';
    case 'no_bundle_url':
      return '此应用是从所选文件夹安装的，没有可检查的 URL：请在“安装小程序”中选择新版本的文件夹。';
    case 'mcp':
      return `${MCP_PROBLEM_ZH[problem.code]}${problem.message}`;
    case 'mcp_unavailable':
      return '本宿主无法连接 MCP 服务器。';
    case 'sign_in_failed':
      return `${
        {
          popup_blocked: '浏览器阻止了登录窗口：请允许此网站打开弹出窗口后重试。',
          popup_closed: '登录窗口在登录完成前被关闭了。',
          timed_out: '登录时间过长。',
          refused: '授权服务器拒绝了登录。',
          failed: '登录失败。',
        }[problem.reason]
      }${problem.reason === 'failed' || problem.reason === 'refused' ? `（${problem.message}）` : ''}`;
    case 'bad_token':
      return '访问令牌未保存：它只能由字母、数字和 - . _ ~ + / 组成（末尾可有 =），不含空格，最多 4,096 个字符。请按服务器给出的原样再复制一次。没有添加任何内容。';
    case 'failed':
      return `操作失败：${problem.message}`;
  }
}

/** A refused bundle in Chinese, by its code (English uses the runtime's own sentence). */
function integrityZh(problem: Extract<AppCenterProblem, { kind: 'integrity' }>): string {
  const path = problem.path ?? '包';
  switch (problem.code) {
    case 'no_integrity':
      return '该包没有列出带摘要的文件，无法验证。';
    case 'fetch_failed':
      return `无法获取 ${path}。`;
    case 'missing_file':
      return `包中缺少 ${path}。`;
    case 'size_mismatch':
      return `${path} 的大小与清单不符：清单为 ${problem.expected ?? '?'} 字节，实际为 ${problem.actual ?? '?'} 字节。`;
    case 'digest_mismatch':
      return `${path} 与清单不符：应为 ${problem.expected ?? '?'}，实为 ${problem.actual ?? '?'}。`;
    case 'not_allowed':
      return '该包既不在允许列表中，也没有受信任密钥的签名。';
    case 'signature_invalid':
      return `${path} 的签名无效。`;
  }
}

/** An app center problem in words, by language. */
export const APP_CENTER_PROBLEM_TEXT: Bilingual<(problem: AppCenterProblem) => string> = {
  en: problemEn,
  zh: problemZh,
};
